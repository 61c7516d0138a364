import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { Audience, NotificationContent } from './domain/notification';
import { UsersService } from '../users/users.service';
import { NotificationsService } from './notifications.service';
import { NotificationsRepository } from './persistence/notifications.repository';

interface DemoNotification extends NotificationContent {
  audience: Audience | { scope: 'private'; email: string };
  /** A channel whose deliveries failed for good in this piece of history. */
  failed?: { channel: 'email' | 'messenger'; error: string };
}

export const DEMO_NOTIFICATIONS: DemoNotification[] = [
  {
    audience: { scope: 'group', group: 'call-center' },
    type: 'default',
    level: 'default',
    title: 'Смена начинается в 09:00',
    text: 'Проверьте гарнитуру и войдите в софтфон до начала смены. Please check your headset and log in before 09:00.',
  },
  {
    audience: { scope: 'group', group: 'call-center-senior' },
    type: 'urgent',
    level: 'danger',
    title: 'Очередь переполнена',
    text: 'В кампании «Недвижимость — Москва» 120 лидов ждут оператора. Подключите резервную группу.',
  },
  {
    audience: { scope: 'public' },
    type: 'default',
    level: 'success',
    title: 'Platform update 2.4',
    text: 'Call recordings now load twice as fast. Записи звонков теперь загружаются вдвое быстрее.',
  },
  {
    audience: { scope: 'private', email: 'anna.smirnova@callcenter.example' },
    type: 'urgent',
    level: 'warning',
    title: 'Проверьте запись разговора',
    text: 'Клиент +7 916 555-12-34 пожаловался на обрыв связи. Прослушайте запись и отметьте результат до конца смены.',
    failed: { channel: 'messenger', error: 'messenger bot answered HTTP 502: Bad Gateway' },
  },
];

/**
 * Demo notifications (seed order 60, after users). They are history: their e-mail and messenger
 * rows are settled here (sent, one failed after every retry) and no job is enqueued, so a demo
 * instance never mails the demo addresses. Skipped when there are no users.
 */
@Injectable()
export class NotificationsDemoSeed {
  constructor(
    seeder: DemoSeeder,
    private readonly notifications: NotificationsService,
    private readonly repo: NotificationsRepository,
    private readonly users: UsersService,
  ) {
    seeder.add({ name: 'notifications', order: 60, run: (m) => this.run(m) });
  }

  private async run(m: EntityManager): Promise<void> {
    const users = await this.users.lockContacts({}, m);
    if (users.length === 0) return;
    for (const n of DEMO_NOTIFICATIONS) {
      let audience: Audience;
      if ('email' in n.audience) {
        const email = n.audience.email;
        const user = users.find((u) => u.email.toLowerCase() === email) ?? users[0];
        audience = { scope: 'private', userId: user.id };
      } else {
        audience = n.audience;
      }
      const content = { type: n.type, level: n.level, title: n.title, text: n.text };
      const { notificationId: id } = await this.notifications.store(m, audience, content, { email: true, messenger: true });
      if (n.failed) await this.repo.settleForDemo(m, id, { status: 'failed', channel: n.failed.channel, error: n.failed.error, attempts: 6 });
      await this.repo.settleForDemo(m, id, { status: 'sent' });
    }
  }
}
