import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { isoDateTime } from '../../common/dates';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { generateSecret } from './domain/signature';
import { TEST_EVENT_TYPE } from './domain/webhook';
import { WebhookEventOutbox } from './persistence/event-source';
import { WebhooksRepository } from './persistence/webhooks.repository';

export const DEMO_WEBHOOK_URL = 'https://crm.example.com/hooks/callcenter';

/**
 * Demo webhook (seed order 70): one paused subscription to an example.com address (reserved, never answers) and one undelivered test
 * event, so the webhook, delivery and redelivery endpoints have something to show. Paused, it is sent nothing; its secret is never shown.
 */
@Injectable()
export class WebhooksDemoSeed {
  constructor(
    seeder: DemoSeeder,
    private readonly repo: WebhooksRepository,
    private readonly outbox: WebhookEventOutbox,
  ) {
    seeder.add({ name: 'webhooks', order: 70, run: (m) => this.run(m) });
  }

  private async run(m: EntityManager): Promise<void> {
    const description = 'CRM sync (paused: an example address)';
    const id = await this.repo.insert(
      m,
      { clientId: null, url: DEMO_WEBHOOK_URL, events: ['lead.created', 'lead.updated'], orderIds: [], description, isActive: false },
      generateSecret(),
    );
    const data = { webhookId: id };
    await this.outbox.append(m, { type: TEST_EVENT_TYPE, orderId: null, data });
    // The event just written, read back in this transaction for its id and time (the body is the feed's shape).
    const [event]: { id: string; createdAt: Date }[] = await m.query(
      `SELECT id, created_at AS "createdAt" FROM event WHERE type = $1 ORDER BY seq DESC LIMIT 1`,
      [TEST_EVENT_TYPE],
    );
    const payload = JSON.stringify({ id: event.id, type: TEST_EVENT_TYPE, timestamp: isoDateTime(event.createdAt), data });
    await m.query(
      `INSERT INTO webhook_delivery (webhook_id, event_id, type, payload, status, attempts, last_error, next_attempt_at)
       VALUES ($1, $2, $3, $4, 'failed', 8, 'ENOTFOUND', NULL)`,
      [id, event.id, TEST_EVENT_TYPE, payload],
    );
  }
}
