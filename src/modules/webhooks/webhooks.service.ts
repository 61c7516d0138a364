import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError, FieldError } from '../../common/domain-error';
import { Page } from '../../common/envelope';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { OrdersService } from '../orders/orders.service';
import { generateSecret } from './domain/signature';
import { checkUrlShape, DeliveryStatus, normaliseEvents, TEST_EVENT_TYPE, Webhook, WebhookDelivery } from './domain/webhook';
import { WebhookEventOutbox } from './persistence/event-source';
import { WebhookFields, WebhooksRepository } from './persistence/webhooks.repository';
import { refusedHostReason } from './http/webhook-sender';
import { WEBHOOK_ERRORS } from './domain/webhooks.errors';

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_GRACE_HOURS = 24;

export interface WebhookInput {
  url?: string;
  events?: string[];
  orderIds?: number[];
  description?: string;
  isActive?: boolean;
}

/** Event types a webhook may subscribe to, bound by the module to the events module's catalogue. */
export const WEBHOOK_EVENT_TYPES = Symbol('WEBHOOK_EVENT_TYPES');

/**
 * Webhooks (scope api): subscriptions with a signing secret, their deliveries, redelivery and
 * test events. Sending is the delivery worker's; this service only stores and queues.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly ds: DataSource,
    private readonly repo: WebhooksRepository,
    private readonly orders: OrdersService,
    private readonly outbox: WebhookEventOutbox,
    private readonly idempotent: IdempotentWrites,
    @Inject(WEBHOOK_EVENT_TYPES) private readonly eventTypes: readonly string[],
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(input: WebhookInput & { url: string; events: string[] }): Promise<{ id: number; secret: string }> {
    const fields = await this.validate(input);
    const secret = generateSecret();
    const row: WebhookFields = {
      url: fields.url!,
      events: fields.events!,
      orderIds: fields.orderIds ?? [],
      description: fields.description ?? '',
      isActive: fields.isActive ?? true,
    };
    // The stored replay of an Idempotency-Key holds the secret too (it is in the same database as the webhook).
    return this.idempotent.transaction(
      async (m) => ({ id: await this.repo.insert(m, row, secret), secret }),
      (created) => created,
    );
  }

  async update(id: number, input: WebhookInput): Promise<void> {
    const fields = await this.validate(input);
    if (!(await this.repo.update(id, fields))) throw DomainError.notFound('Webhook', id);
  }

  async detail(id: number): Promise<Webhook> {
    const w = await this.repo.findById(id);
    if (!w) throw DomainError.notFound('Webhook', id);
    return w;
  }

  list(offset: number, limit: number): Promise<Page<Webhook>> {
    return this.repo.listPage(offset, limit);
  }

  async delete(id: number): Promise<void> {
    if (!(await this.repo.delete(id))) throw DomainError.notFound('Webhook', id);
  }

  /** A new secret; the previous one keeps signing for ROTATION_GRACE_HOURS. */
  async rotateSecret(id: number): Promise<{ secret: string }> {
    const secret = generateSecret();
    if (!(await this.repo.rotateSecret(id, secret, ROTATION_GRACE_HOURS))) throw DomainError.notFound('Webhook', id);
    return { secret };
  }

  /** Queues a `webhook.test` event, delivered to this webhook only (whatever its type filter). */
  async sendTest(id: number): Promise<void> {
    await this.ds.transaction(async (m) => {
      const w = await this.repo.findById(id, m);
      if (!w) throw DomainError.notFound('Webhook', id);
      if (!w.isActive) throw DomainError.conflict(WEBHOOK_ERRORS.INACTIVE, `Webhook ${id} is not active; activate it first`);
      await this.outbox.append(m, { type: TEST_EVENT_TYPE, orderId: null, data: { webhookId: id } });
    });
  }

  deliveries(filter: { webhookId?: number; status?: DeliveryStatus }, offset: number, limit: number): Promise<Page<WebhookDelivery>> {
    return this.repo.listDeliveries(filter, offset, limit);
  }

  /** Sends the delivery again as soon as a worker is free (attempts keep counting). */
  async redeliver(deliveryId: number): Promise<void> {
    const found = await this.repo.redeliver(deliveryId);
    if (!found) throw DomainError.notFound('Delivery', deliveryId);
  }

  /** Every input rule, all errors at once: URL shape and where it resolves, event types, orders. */
  private async validate(input: WebhookInput): Promise<Partial<WebhookFields>> {
    const errors: FieldError[] = [];
    const fields: Partial<WebhookFields> = { description: input.description, isActive: input.isActive };
    if (input.url !== undefined) {
      const shape = checkUrlShape(input.url, this.config.webhookAllowHttp);
      if (!shape.ok) errors.push(...shape.errors);
      else {
        const refused = await refusedHostReason(shape.value, this.config.webhookAllowPrivateNetworks);
        if (refused) errors.push({ field: 'url', message: `${refused} (allowed only with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true)` });
        else fields.url = shape.value.toString();
      }
    }
    if (input.events !== undefined) {
      const events = normaliseEvents(input.events, this.eventTypes);
      if (events.ok) fields.events = events.value;
      else errors.push(...events.errors);
    }
    if (input.orderIds !== undefined) {
      const ids = [...new Set(input.orderIds)];
      const missing: number[] = [];
      for (const orderId of ids) if (!(await this.orders.getOrderSettings(orderId))) missing.push(orderId);
      if (missing.length) errors.push({ field: 'orderIds', message: `unknown ids: ${missing.join(', ')}` });
      fields.orderIds = ids.sort((a, b) => a - b);
    }
    if (errors.length) throw DomainError.validation(errors);
    return fields;
  }
}
