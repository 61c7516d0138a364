import request from 'supertest';
import { DemoSeeder } from '../src/database/seed/demo-seeder';
import { NotificationType, wantsChannel } from '../src/modules/notifications/domain/notification';
import { DEMO_NOTIFICATIONS } from '../src/modules/notifications/notifications.seed';
import { deliveriesOfTitle, insertUser, notificationBody, notificationFootprint, postNotification, TestUserFields } from './factories/notifications';
import { eventually, FakeBot, FakeSmtp, startFakeBot, startFakeSmtp } from './support/fake-servers';
import { pendingDemoSteps } from './support/demo-steps';
import { createTestApp, TestApp } from './support/test-app';

const FAILING_CHAT = /^fail-/;
const BOUNCING_MAILBOX = /@bounce\.test$/;

describe('notifications, both channels configured (real SMTP server and bot endpoint in-process)', () => {
  let smtp: FakeSmtp;
  let bot: FakeBot;
  let t: TestApp;

  beforeAll(async () => {
    smtp = await startFakeSmtp({ reject: (address) => BOUNCING_MAILBOX.test(address) });
    bot = await startFakeBot({ status: (body) => (FAILING_CHAT.test(String(body.chatId)) ? 500 : 200) });
    t = await createTestApp({
      SMTP_URL: smtp.url,
      MESSENGER_BOT_URL: bot.url,
      NOTIFICATION_EMAIL_FROM: 'Call center <alerts@callcenter.test>',
      NOTIFICATION_RETRY_LIMIT: '2',
      NOTIFICATION_RETRY_DELAY_SECONDS: '1',
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await bot?.close();
  });

  const mailsTitled = (title: string) => smtp.messages.filter((m) => m.subject.endsWith(title));
  const botMessagesTitled = (title: string) => bot.requests.filter((r) => String(r.body.text).startsWith(`${title}\n`));
  const list = (userId: number | string, extra = '') => request(t.http).get(`/v1/notification/?userId=${userId}${extra}`).set('X-Api-Key', t.apiKey);

  describe('a group notification, every combination of preferences', () => {
    // 32 active moderators: e-mail on/off x urgent-only or not, messenger on/off x urgent-only or not x chat id or not.
    const combos: TestUserFields[] = [];
    for (const emailEnabled of [false, true])
      for (const emailPriority of [null, 'urgent'] as const)
        for (const telegramEnabled of [false, true])
          for (const telegramPriority of [null, 'urgent'] as const)
            for (const chat of [false, true])
              combos.push({ emailEnabled, emailPriority, telegramEnabled, telegramPriority, telegramChatId: chat ? 'x' : null });
    let users: { id: number; email: string; f: TestUserFields }[];
    let outsider: number;
    let inactive: number;

    beforeAll(async () => {
      users = [];
      for (const [i, f] of combos.entries()) {
        const fields = { ...f, accessGroup: 'moderator' as const, telegramChatId: f.telegramChatId ? `70000${i}` : null };
        users.push({ ...(await insertUser(t.ds, fields)), f: fields });
      }
      const everything = { emailEnabled: true, telegramEnabled: true, telegramChatId: '79999' };
      outsider = (await insertUser(t.ds, { ...everything, accessGroup: 'admin' })).id;
      inactive = (await insertUser(t.ds, { ...everything, accessGroup: 'moderator', isActive: false })).id;
    });

    const expected = (type: NotificationType) => {
      const rows: { userId: number; channel: string; address: string | null }[] = [];
      for (const u of users) {
        rows.push({ userId: u.id, channel: 'inbox', address: null });
        const email = { enabled: !!u.f.emailEnabled, priority: u.f.emailPriority ?? null, address: u.email };
        const tg = { enabled: !!u.f.telegramEnabled, priority: u.f.telegramPriority ?? null, address: u.f.telegramChatId ?? null };
        if (wantsChannel(email, type)) rows.push({ userId: u.id, channel: 'email', address: u.email });
        if (wantsChannel(tg, type)) rows.push({ userId: u.id, channel: 'messenger', address: tg.address });
      }
      return rows.sort((a, b) => a.userId - b.userId || a.channel.localeCompare(b.channel));
    };

    it.each(['default', 'urgent'] as const)(
      '%s: stored per recipient and channel, e-mails and messages actually received by exactly those users',
      async (type) => {
        const body = notificationBody({ type, level: 'warning', group: 'moderator', text: 'Queue "Realty" has 120 waiting leads.\nPlease join.' });
        const res = await postNotification(t, 'group', body).expect(200);
        expect(res.body).toEqual({ success: true, message: '', data: [] });

        const want = expected(type);
        const stored = await deliveriesOfTitle(t.ds, body.title);
        expect(stored.map(({ userId, channel, address }) => ({ userId, channel, address }))).toEqual(want);
        expect(stored.some((d) => d.userId === outsider || d.userId === inactive)).toBe(false);
        // The rule is not vacuous: some users get each channel, some do not.
        expect(want.filter((w) => w.channel === 'email').length).toBeGreaterThan(0);
        expect(want.filter((w) => w.channel === 'messenger').length).toBeGreaterThan(0);

        const wantEmails = want
          .filter((w) => w.channel === 'email')
          .map((w) => w.address)
          .sort();
        const wantChats = want
          .filter((w) => w.channel === 'messenger')
          .map((w) => w.address)
          .sort();
        await eventually(
          async () => {
            const rows = await deliveriesOfTitle(t.ds, body.title);
            return rows.every((r) => r.status === (r.channel === 'inbox' ? 'delivered' : 'sent'));
          },
          20_000,
          'every delivery sent',
        );

        const mails = mailsTitled(body.title);
        expect(mails.flatMap((m) => m.to).sort()).toEqual(wantEmails);
        for (const m of mails) {
          expect(m.from).toBe('alerts@callcenter.test');
          expect(m.subject).toBe(type === 'urgent' ? `[URGENT] ${body.title}` : body.title);
          expect(m.text).toBe(body.text);
        }
        const messages = botMessagesTitled(body.title);
        expect(messages.map((m) => m.body.chatId).sort()).toEqual(wantChats);
        for (const m of messages) {
          expect(m.body).toEqual({
            chatId: expect.any(String),
            text: `${body.title}\n\n${body.text}`,
            urgent: type === 'urgent',
            level: 'warning',
            notificationId: expect.any(Number),
          });
        }

        const after = await deliveriesOfTitle(t.ds, body.title);
        for (const d of after.filter((r) => r.channel !== 'inbox')) expect(d).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
      },
      40_000,
    );

    it('urgent-only users get the urgent notification and not the default one', async () => {
      const urgentOnly = users.find(
        (u) => u.f.emailEnabled && u.f.emailPriority === 'urgent' && u.f.telegramEnabled && u.f.telegramPriority === 'urgent' && u.f.telegramChatId,
      )!;
      const page = (await list(urgentOnly.id).expect(200)).body.data;
      const byType = Object.fromEntries(
        page.list.map((n: { type: string; deliveries: { channel: string }[] }) => [n.type, n.deliveries.map((d) => d.channel)]),
      );
      expect(byType).toEqual({ default: ['inbox'], urgent: ['inbox', 'email', 'messenger'] });
      const urgentTitle = page.list.find((n: { type: string }) => n.type === 'urgent').title;
      const defaultTitle = page.list.find((n: { type: string }) => n.type === 'default').title;
      expect(mailsTitled(urgentTitle).flatMap((m) => m.to)).toContain(urgentOnly.email);
      expect(mailsTitled(defaultTitle).flatMap((m) => m.to)).not.toContain(urgentOnly.email);
      expect(botMessagesTitled(urgentTitle).map((m) => m.body.chatId)).toContain(urgentOnly.f.telegramChatId);
      expect(botMessagesTitled(defaultTitle).map((m) => m.body.chatId)).not.toContain(urgentOnly.f.telegramChatId);
    });
  });

  it('a private notification reaches that user on every channel they enabled, with the message id stable per delivery', async () => {
    const u = await insertUser(t.ds, { accessGroup: 'client', emailEnabled: true, telegramEnabled: true, telegramChatId: '5551001' });
    const body = notificationBody({
      type: 'urgent',
      level: 'danger',
      user_id: u.id,
      title: 'Запись разговора недоступна',
      text: 'Проверьте настройки записи — «Недвижимость»',
    });
    await postNotification(t, 'private', body).expect(200);
    const mail = await eventually(() => mailsTitled(body.title)[0], 15_000, 'the e-mail');
    expect(mail.to).toEqual([u.email]);
    expect(mail.subject).toBe(`[URGENT] ${body.title}`);
    expect(mail.text).toBe(body.text);
    expect(mail.headers['message-id']).toMatch(/^<notification-delivery-\d+@callcenter\.local>$/);
    const msg = await eventually(() => botMessagesTitled(body.title)[0], 15_000, 'the bot message');
    expect(msg.body).toMatchObject({ chatId: '5551001', urgent: true, level: 'danger' });
    expect(msg.headers['idempotency-key']).toMatch(/^notification-delivery-\d+$/);
  });

  it('a private notification to an inactive user is kept in the inbox only', async () => {
    const u = await insertUser(t.ds, { isActive: false, emailEnabled: true, telegramEnabled: true, telegramChatId: '5551002' });
    const body = notificationBody({ user_id: u.id });
    await postNotification(t, 'private', body).expect(200);
    expect((await deliveriesOfTitle(t.ds, body.title)).map((d) => d.channel)).toEqual(['inbox']);
  });

  it('a public notification reaches every active user and no inactive one', async () => {
    const active = await insertUser(t.ds, { accessGroup: '' });
    const inactive = await insertUser(t.ds, { isActive: false });
    const body = notificationBody({ level: 'success' });
    await postNotification(t, 'public', body).expect(200);
    const inbox = (await deliveriesOfTitle(t.ds, body.title)).filter((d) => d.channel === 'inbox').map((d) => d.userId);
    const [{ n }] = await t.ds.query(`SELECT count(*)::int AS n FROM app_user WHERE is_active`);
    expect(inbox).toHaveLength(n);
    expect(inbox).toContain(active.id);
    expect(inbox).not.toContain(inactive.id);
    const [row] = await t.ds.query(`SELECT scope, recipient_count AS "recipientCount" FROM notification WHERE title = $1`, [body.title]);
    expect(row).toEqual({ scope: 'public', recipientCount: n });
  });

  it('an undeliverable message ends failed after the retries, never dropped, visible through the management endpoint; the rest of its batch is sent once', async () => {
    const u = await insertUser(t.ds, {
      accessGroup: 'client',
      email: 'nobody@bounce.test',
      emailEnabled: true,
      telegramEnabled: true,
      telegramChatId: 'fail-1',
    });
    const ok = await insertUser(t.ds, { accessGroup: 'client', emailEnabled: true, telegramEnabled: true, telegramChatId: '5551003' });
    const body = notificationBody({ type: 'urgent', group: 'client' });
    await postNotification(t, 'group', body).expect(200);

    const page = await eventually(
      async () => {
        const res = await list(u.id).expect(200);
        const n = res.body.data.list.find((x: { title: string }) => x.title === body.title);
        return n.deliveries.every((d: { status: string }) => d.status !== 'pending') ? n : undefined;
      },
      30_000,
      'the deliveries to settle',
    );
    expect(page.deliveries).toEqual([
      { channel: 'inbox', status: 'delivered', attempts: 0, lastError: null, sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/) },
      { channel: 'email', status: 'failed', attempts: 3, lastError: expect.stringContaining('550'), sentAt: null },
      { channel: 'messenger', status: 'failed', attempts: 3, lastError: 'messenger bot answered HTTP 500: bot is down', sentAt: null },
    ]);
    // Three attempts (the first and NOTIFICATION_RETRY_LIMIT=2 retries), all with the same idempotency key.
    const tries = botMessagesTitled(body.title).filter((r) => r.body.chatId === 'fail-1');
    expect(tries).toHaveLength(3);
    expect(new Set(tries.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    // The reachable user in the same batches got each message exactly once, though the batch was retried.
    const okDeliveries = (await deliveriesOfTitle(t.ds, body.title)).filter((d) => d.userId === ok.id && d.channel !== 'inbox');
    expect(okDeliveries.map((d) => [d.channel, d.status, d.attempts])).toEqual([
      ['email', 'sent', 1],
      ['messenger', 'sent', 1],
    ]);
    expect(botMessagesTitled(body.title).filter((r) => r.body.chatId === '5551003')).toHaveLength(1);
    expect(mailsTitled(body.title).filter((m) => m.to.includes(ok.email))).toHaveLength(1);
  }, 45_000);

  describe('validation: every rule rejected with 400, nothing stored', () => {
    let userId: number;
    beforeAll(async () => {
      userId = (await insertUser(t.ds, { emailEnabled: true })).id;
    });
    const base = { type: 'default', level: 'default', title: 'Title', text: 'Text' };
    const cases: [string, 'group' | 'private' | 'public', Record<string, unknown>, string][] = [];
    for (const kind of ['group', 'private', 'public'] as const) {
      const extra = kind === 'group' ? { group: 'admin' } : kind === 'private' ? { user_id: 'USER' } : {};
      const full: Record<string, unknown> = { ...base, ...extra };
      for (const field of Object.keys(full)) {
        const { [field]: _dropped, ...missing } = full;
        cases.push([`${kind}: missing ${field}`, kind, missing, field]);
        cases.push([`${kind}: null ${field}`, kind, { ...full, [field]: null }, field]);
      }
      cases.push([`${kind}: unknown type`, kind, { ...full, type: 'critical' }, 'type']);
      cases.push([`${kind}: unknown level`, kind, { ...full, level: 'info' }, 'level']);
      cases.push([`${kind}: title not a string`, kind, { ...full, title: 5 }, 'title']);
      cases.push([`${kind}: empty title`, kind, { ...full, title: '' }, 'title']);
      cases.push([`${kind}: blank title`, kind, { ...full, title: '   ' }, 'title']);
      cases.push([`${kind}: title over 255`, kind, { ...full, title: 'x'.repeat(256) }, 'title']);
      cases.push([`${kind}: empty text`, kind, { ...full, text: '' }, 'text']);
      cases.push([`${kind}: text over 4000`, kind, { ...full, text: 'x'.repeat(4001) }, 'text']);
      cases.push([`${kind}: text not a string`, kind, { ...full, text: ['a'] }, 'text']);
    }
    cases.push(['group: unknown group', 'group', { ...base, group: 'operators' }, 'group']);
    cases.push(['group: empty group', 'group', { ...base, group: '' }, 'group']);
    for (const bad of [0, -1, 1.5, '7', 2_147_483_648, true])
      cases.push([`private: user_id ${JSON.stringify(bad)}`, 'private', { ...base, user_id: bad }, 'user_id']);

    it.each(cases)('%s', async (_name, kind, body, field) => {
      const before = await notificationFootprint(t.ds);
      const payload = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, v === 'USER' ? userId : v]));
      const res = await postNotification(t, kind, payload).expect(400);
      expect(res.body.success).toBe(false);
      expect(res.body.data.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field, message: expect.any(String) })]));
      expect(await notificationFootprint(t.ds)).toEqual(before);
    });

    it('answers 404 for an unknown user, storing nothing', async () => {
      const before = await notificationFootprint(t.ds);
      const res = await postNotification(t, 'private', { ...base, user_id: 999_999 }).expect(404);
      expect(res.body).toEqual({ success: false, message: expect.stringContaining('999999'), data: [] });
      expect(await notificationFootprint(t.ds)).toEqual(before);
    });

    it('ignores unknown and read-only fields', async () => {
      const body = notificationBody({ user_id: userId, id: 77, createdAt: '2020-01-01', scope: 'public' });
      await postNotification(t, 'private', body).expect(200);
      const [row] = await t.ds.query(`SELECT id, scope FROM notification WHERE title = $1`, [body.title]);
      expect(row.scope).toBe('private');
      expect(row.id).not.toBe(77);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays a retried send without a second notification or message', async () => {
      const u = await insertUser(t.ds, { emailEnabled: true });
      const body = notificationBody({ user_id: u.id });
      const send = () => postNotification(t, 'private', body).set('Idempotency-Key', `notify-${body.title}`);
      const first = await send().expect(200);
      const again = await send().expect(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await t.ds.query(`SELECT id FROM notification WHERE title = $1`, [body.title])).toHaveLength(1);
      await eventually(() => mailsTitled(body.title).length === 1, 15_000, 'the e-mail');
      await new Promise((r) => setTimeout(r, 500));
      expect(mailsTitled(body.title)).toHaveLength(1);
    });

    it('answers 409 for the same key with another body, on every endpoint', async () => {
      for (const kind of ['group', 'private', 'public'] as const) {
        const u = await insertUser(t.ds);
        const extra = kind === 'group' ? { group: 'arbitration' } : kind === 'private' ? { user_id: u.id } : {};
        const key = `conflict-${kind}-${Math.random()}`;
        await postNotification(t, kind, notificationBody(extra)).set('Idempotency-Key', key).expect(200);
        const other = notificationBody(extra);
        await postNotification(t, kind, other).set('Idempotency-Key', key).expect(409);
        expect(await t.ds.query(`SELECT id FROM notification WHERE title = $1`, [other.title])).toHaveLength(0);
      }
    });
  });

  describe('GET /v1/notification/?userId= (management)', () => {
    let userId: number;
    const titles: string[] = [];
    beforeAll(async () => {
      userId = (await insertUser(t.ds, { accessGroup: 'arbitration' })).id;
      for (let i = 0; i < 3; i++) {
        const body = notificationBody({ user_id: userId, level: 'success' });
        titles.push(body.title);
        await postNotification(t, 'private', body).expect(200);
      }
    });

    it('lists the user notifications by id with exact fields and types', async () => {
      const res = await list(userId).expect(200);
      expect(res.body.success).toBe(true);
      const { list: items, next, total } = res.body.data;
      expect(total).toBe(3);
      expect(next).toBe(3);
      expect(items.map((n: { title: string }) => n.title)).toEqual(titles);
      expect(items.map((n: { id: number }) => n.id)).toEqual([...items.map((n: { id: number }) => n.id)].sort((a, b) => a - b));
      expect(items[0]).toEqual({
        id: expect.any(Number),
        type: 'default',
        level: 'success',
        title: titles[0],
        text: 'Shift starts at 09:00.',
        scope: 'private',
        group: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
        deliveries: [{ channel: 'inbox', status: 'delivered', attempts: 0, lastError: null, sentAt: expect.any(String) }],
      });
    });

    it('shows the group of a group notification', async () => {
      const body = notificationBody({ group: 'arbitration' });
      await postNotification(t, 'group', body).expect(200);
      const res = await list(userId).expect(200);
      expect(res.body.data.list.find((n: { title: string }) => n.title === body.title)).toMatchObject({ scope: 'group', group: 'arbitration' });
    });

    it('pages with offset and limit', async () => {
      const first = (await list(userId, '&limit=2').expect(200)).body.data;
      expect(first.list).toHaveLength(2);
      expect(first.next).toBe(2);
      const second = (await list(userId, `&offset=${first.next}&limit=2`).expect(200)).body.data;
      expect(second.next).toBe(second.total);
      expect([...first.list, ...second.list].map((n: { id: number }) => n.id)).toEqual(
        (await list(userId).expect(200)).body.data.list.map((n: { id: number }) => n.id),
      );
      const beyond = (await list(userId, '&offset=50').expect(200)).body.data;
      expect(beyond).toEqual({ list: [], next: 50, total: first.total });
    });

    it('answers an empty page for a user without notifications, and 404 for an unknown user', async () => {
      const quiet = await insertUser(t.ds, { accessGroup: 'client' });
      expect((await list(quiet.id).expect(200)).body.data).toEqual({ list: [], next: 0, total: 0 });
      const res = await list(999_999).expect(404);
      expect(res.body).toEqual({ success: false, message: expect.any(String), data: [] });
    });

    it.each([
      ['', 'missing'],
      ['0', 'zero'],
      ['-1', 'negative'],
      ['abc', 'not a number'],
      ['99999999999', 'out of range'],
    ])('rejects userId=%s (%s) with 400', async (value) => {
      const res = await request(t.http)
        .get(`/v1/notification/${value === '' ? '' : `?userId=${value}`}`)
        .set('X-Api-Key', t.apiKey)
        .expect(400);
      expect(res.body.data.errors[0].field).toBe('userId');
    });

    it('rejects bad paging with 400', async () => {
      await list(userId, '&limit=101').expect(400);
      await list(userId, '&limit=0').expect(400);
      await list(userId, '&offset=-1').expect(400);
    });

    it('needs the admin scope; sending needs only api', async () => {
      const apiOnly = await t.keyWith('api');
      await request(t.http).get(`/v1/notification/?userId=${userId}`).set('X-Api-Key', apiOnly).expect(403);
      await postNotification(t, 'private', notificationBody({ user_id: userId }), apiOnly).expect(200);
      const telephony = await t.keyWith('telephony');
      await postNotification(t, 'public', notificationBody(), telephony).expect(403);
      await request(t.http).post('/v1/notification/public/').send(notificationBody()).expect(401);
    });
  });

  it('documents the endpoints in the OpenAPI document', async () => {
    const doc = (await request(t.http).get('/docs-json').expect(200)).body;
    for (const kind of ['group', 'private', 'public']) expect(doc.paths[`/v1/notification/${kind}`].post).toBeDefined();
    expect(doc.paths['/v1/notification'].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['userId', 'offset', 'limit']));
    const schema = doc.components.schemas.PrivateNotificationDto;
    expect(schema.required).toEqual(expect.arrayContaining(['type', 'level', 'title', 'text', 'user_id']));
    expect(schema.properties.title.maxLength).toBe(255);
    expect(schema.properties.text.maxLength).toBe(4000);
  });

  it('the health check lists the delivery queues with their consumers', async () => {
    const res = await request(t.http).get('/v1/health/check/').set('X-Api-Key', t.apiKey).expect(200);
    const queues = res.body.data.serviceMqHub.data.consumers.filter((c: { queue_name: string }) => c.queue_name.startsWith('notification.'));
    expect(queues.map((q: { queue_name: string; data: { needle_consumers_count: number } }) => [q.queue_name, q.data.needle_consumers_count])).toEqual([
      ['notification.deliver.dead', 1],
      ['notification.deliver', 1],
    ]);
  });
});

describe('notifications, channels not configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores the e-mail and messenger rows as skipped, enqueues nothing, and the health check passes', async () => {
    const u = await insertUser(t.ds, { accessGroup: 'moderator', emailEnabled: true, telegramEnabled: true, telegramChatId: '5552001' });
    const body = notificationBody({ group: 'moderator', type: 'urgent' });
    await postNotification(t, 'group', body).expect(200);
    const res = await request(t.http).get(`/v1/notification/?userId=${u.id}`).set('X-Api-Key', t.apiKey).expect(200);
    expect(res.body.data.list[0].deliveries).toEqual([
      { channel: 'inbox', status: 'delivered', attempts: 0, lastError: null, sentAt: expect.any(String) },
      { channel: 'email', status: 'skipped', attempts: 0, lastError: 'channel not configured (SMTP_URL is not set)', sentAt: null },
      { channel: 'messenger', status: 'skipped', attempts: 0, lastError: 'channel not configured (MESSENGER_BOT_URL is not set)', sentAt: null },
    ]);
    expect((await notificationFootprint(t.ds)).jobs).toBe(0);

    const health = await request(t.http).get('/v1/health/check/').set('X-Api-Key', t.apiKey).expect(200);
    expect(health.body.success).toBe(true);
    const queues = health.body.data.serviceMqHub.data.consumers.filter((c: { queue_name: string }) => c.queue_name.startsWith('notification.'));
    expect(queues.every((q: { success: boolean; data: { needle_consumers_count: number } }) => q.success && q.data.needle_consumers_count === 0)).toBe(true);
  });

  it('seeds demo notifications over the demo users, settled as history', async () => {
    const anna = await insertUser(t.ds, {
      email: 'anna.smirnova@callcenter.example',
      accessGroup: 'call-center',
      telegramEnabled: true,
      telegramChatId: '401100203',
      telegramPriority: 'urgent',
    });
    await insertUser(t.ds, { accessGroup: 'call-center-senior', emailEnabled: true });
    // Registered between the calls and the webhooks (order 60); run here on its own, the other steps marked as applied.
    const steps = await pendingDemoSteps(t);
    expect(steps.filter((n) => ['calls', 'notifications', 'webhooks'].includes(n))).toEqual(['calls', 'notifications', 'webhooks']);
    await t.ds.query(`INSERT INTO demo_seed_step (name) SELECT unnest($1::text[])`, [steps.filter((n) => n !== 'notifications')]);
    expect(await t.app.get(DemoSeeder).run()).toEqual(['notifications']);
    const seeded = await t.ds.query(`SELECT scope, title FROM notification WHERE title = ANY($1) ORDER BY id`, [DEMO_NOTIFICATIONS.map((n) => n.title)]);
    expect(seeded.map((r: { scope: string }) => r.scope)).toEqual(['group', 'group', 'public', 'private']);
    const page = (await request(t.http).get(`/v1/notification/?userId=${anna.id}`).set('X-Api-Key', t.apiKey).expect(200)).body.data;
    const privateOne = page.list.find((n: { scope: string }) => n.scope === 'private');
    expect(privateOne.deliveries).toEqual([
      expect.objectContaining({ channel: 'inbox', status: 'delivered' }),
      expect.objectContaining({ channel: 'messenger', status: 'failed', attempts: 6, lastError: expect.stringContaining('502') }),
    ]);
    const [{ pending }] = await t.ds.query(`SELECT count(*)::int AS pending FROM notification_delivery WHERE status = 'pending'`);
    expect(pending).toBe(0);
  });
});

describe('notifications at scale', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No workers: the jobs stay queued, so the fan-out and the enqueueing can be counted.
    t = await createTestApp({ WORKERS: '0', SMTP_URL: 'smtp://127.0.0.1:9', MESSENGER_BOT_URL: 'http://127.0.0.1:9/' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('fans a public notification out to 10 000 users with set-based writes, one job per 50 outbox rows of a channel', async () => {
    await t.ds.query(
      `INSERT INTO app_user (email, access_group, email_notifications_enabled, telegram_notifications_enabled, telegram_chat_id)
       SELECT 'bulk-' || g || '@notify.test', 'call-center', g % 2 = 0, g % 5 = 0, CASE WHEN g % 5 = 0 THEN (900000 + g)::text END
       FROM generate_series(1, 10000) g`,
    );
    const body = notificationBody();
    const started = Date.now();
    await postNotification(t, 'public', body).expect(200);
    const elapsed = Date.now() - started;
    const [counts] = await t.ds.query(
      `SELECT count(*) FILTER (WHERE channel = 'inbox')::int AS inbox, count(*) FILTER (WHERE channel = 'email')::int AS email,
              count(*) FILTER (WHERE channel = 'messenger')::int AS messenger, count(*) FILTER (WHERE status = 'pending')::int AS pending
       FROM notification_delivery d JOIN notification n ON n.id = d.notification_id WHERE n.title = $1`,
      [body.title],
    );
    expect(counts).toEqual({ inbox: 10_000, email: 5_000, messenger: 2_000, pending: 7_000 });
    expect((await notificationFootprint(t.ds)).jobs).toBe(5_000 / 50 + 2_000 / 50);
    const [job] = await t.ds.query(`SELECT data FROM pgboss.job WHERE name = 'notification.deliver' ORDER BY created_on, id LIMIT 1`);
    expect(job.data).toEqual({ channel: expect.stringMatching(/^(email|messenger)$/), deliveryIds: expect.any(Array) });
    expect(job.data.deliveryIds).toHaveLength(50);
    expect(elapsed).toBeLessThan(10_000);
  }, 60_000);
});
