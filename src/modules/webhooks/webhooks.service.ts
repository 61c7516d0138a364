import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ClientAccess } from '../../common/auth-context';
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
 * Webhooks (scope api): subscriptions, deliveries, redelivery and test events; sending is the delivery worker's. A webhook
 * created with a client key is its client's: only its keys reach it and it names only its orders; unrestricted keys reach all.
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

  async create(access: ClientAccess, input: WebhookInput & { url: string; events: string[] }): Promise<{ id: number; secret: string }> {
    const fields = await this.validate(access, input);
    const secret = generateSecret();
    const row: WebhookFields = {
      clientId: access.clientId,
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

  async update(access: ClientAccess, id: number, input: WebhookInput): Promise<void> {
    const fields = await this.validate(access, input);
    if (!(await this.repo.update(id, access.clientId, fields))) throw DomainError.notFound('Webhook', id);
  }

  async detail(access: ClientAccess, id: number): Promise<Webhook> {
    const w = await this.repo.findById(id, access.clientId);
    if (!w) throw DomainError.notFound('Webhook', id);
    return w;
  }

  list(access: ClientAccess, offset: number, limit: number): Promise<Page<Webhook>> {
    return this.repo.listPage(access.clientId, offset, limit);
  }

  async delete(access: ClientAccess, id: number): Promise<void> {
    if (!(await this.repo.delete(id, access.clientId))) throw DomainError.notFound('Webhook', id);
  }

  /** A new secret; the previous one keeps signing for ROTATION_GRACE_HOURS. */
  async rotateSecret(access: ClientAccess, id: number): Promise<{ secret: string }> {
    const secret = generateSecret();
    if (!(await this.repo.rotateSecret(id, access.clientId, secret, ROTATION_GRACE_HOURS))) throw DomainError.notFound('Webhook', id);
    return { secret };
  }

  /** Queues a `webhook.test` event, delivered to this webhook only (whatever its type filter). */
  async sendTest(access: ClientAccess, id: number): Promise<void> {
    await this.ds.transaction(async (m) => {
      const w = await this.repo.findById(id, access.clientId, m);
      if (!w) throw DomainError.notFound('Webhook', id);
      if (!w.isActive) throw DomainError.conflict(WEBHOOK_ERRORS.INACTIVE, `Webhook ${id} is not active; activate it first`);
      await this.outbox.append(m, { type: TEST_EVENT_TYPE, orderId: null, data: { webhookId: id } });
    });
  }

  deliveries(access: ClientAccess, filter: { webhookId?: number; status?: DeliveryStatus }, offset: number, limit: number): Promise<Page<WebhookDelivery>> {
    return this.repo.listDeliveries(filter, access.clientId, offset, limit);
  }

  /** Sends the delivery again as soon as a worker is free (attempts keep counting). */
  async redeliver(access: ClientAccess, deliveryId: number): Promise<void> {
    const found = await this.repo.redeliver(deliveryId, access.clientId);
    if (!found) throw DomainError.notFound('Delivery', deliveryId);
  }

  /** Every input rule, all errors at once: URL shape and where it resolves, event types, orders. */
  private async validate(access: ClientAccess, input: WebhookInput): Promise<Partial<Omit<WebhookFields, 'clientId'>>> {
    const errors: FieldError[] = [];
    const fields: Partial<Omit<WebhookFields, 'clientId'>> = { description: input.description, isActive: input.isActive };
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
      const missing = await this.unknownOrders(access, ids);
      if (missing.length) errors.push({ field: 'orderIds', message: `unknown ids: ${missing.join(', ')}` });
      fields.orderIds = ids.sort((a, b) => a - b);
    }
    if (errors.length) throw DomainError.validation(errors);
    return fields;
  }

  /** The ids among `ids` that name no order `access` reaches (a client key: another client's orders too). */
  private async unknownOrders(access: ClientAccess, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const reached = await this.orders.orderIdsReached(access);
    if (reached !== null) return ids.filter((id) => !reached.includes(id));
    const missing: number[] = [];
    for (const orderId of ids) if (!(await this.orders.getOrderSettings(orderId))) missing.push(orderId);
    return missing;
  }
}
