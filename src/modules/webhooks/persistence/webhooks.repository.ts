import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { assignments, SqlParams, whereOf } from '../../../database/sql-params';
import { DeliveryStatus, Webhook, WebhookDelivery } from '../domain/webhook';
import type { Page } from '../../../common/envelope';
import { findPage } from '../../../database/page';
import { type Assert, entityColumns, type SameKeys } from '../../../database/entity-columns';
import { WebhookDeliveryEntity, WebhookEntity } from './webhook.entity';

export interface WebhookFields {
  /** The client whose key created it; null: an unrestricted key's. Set once, at creation. */
  clientId: number | null;
  url: string;
  events: string[];
  orderIds: number[];
  description: string;
  isActive: boolean;
}

const WEBHOOK = entityColumns(WebhookEntity);
const DELIVERY = entityColumns(WebhookDeliveryEntity);
/** Never selected here (only the delivery claim reads the secrets), nor shown. */
const NOT_IN_WEBHOOK = ['secret', 'previousSecret', 'failingSince'] as const;
const NOT_IN_DELIVERY = ['payload', 'updatedAt'] as const;

// The compiler keeps Webhook, WebhookDelivery and WebhookFields to the entities' columns.
type _WebhookIsEntity = Assert<SameKeys<keyof Webhook, Exclude<keyof WebhookEntity, (typeof NOT_IN_WEBHOOK)[number]>>>;
type _DeliveryIsEntity = Assert<SameKeys<keyof WebhookDelivery, Exclude<keyof WebhookDeliveryEntity, (typeof NOT_IN_DELIVERY)[number]>>>;
type _FieldsAreColumns = Assert<SameKeys<keyof WebhookFields & keyof WebhookEntity, keyof WebhookFields>>;

const SELECT_WEBHOOK = `SELECT ${WEBHOOK.except(NOT_IN_WEBHOOK).select(undefined, {
  previousSecretExpiresAt: 'CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END',
})} FROM webhook`;

/**
 * What a key reaches: a client key only its client's webhooks (`client_id` of `alias`), an
 * unrestricted key every webhook (no condition).
 */
function owned(p: SqlParams, clientId: number | null, alias = ''): string[] {
  return clientId === null ? [] : [`${alias}client_id = ${p.add(clientId)}`];
}

// WebhookDelivery.id is a number: the bigint id is read as int.
const SELECT_DELIVERY = `SELECT ${DELIVERY.except(NOT_IN_DELIVERY).select(undefined, { id: 'id::int' })} FROM webhook_delivery`;

/**
 * Webhooks and the management side of their deliveries (the delivery pipeline has its own
 * repository). Each method takes the caller's client (null: unrestricted) and reaches only the
 * webhooks it owns, in the same statement: another client's webhook is one that does not exist.
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly ds: DataSource) {}

  async insert(m: EntityManager, fields: WebhookFields, secret: string): Promise<number> {
    const columns = WEBHOOK.only(['clientId', 'url', 'events', 'orderIds', 'description', 'isActive', 'secret']);
    const rows: { id: number }[] = await m.query(`${columns.insertInto('webhook')} RETURNING id`, columns.values({ ...fields, secret }));
    return rows[0].id;
  }

  async findById(id: number, clientId: number | null, m?: EntityManager): Promise<Webhook | null> {
    const p = new SqlParams();
    const rows: Webhook[] = await (m ?? this.ds).query(`${SELECT_WEBHOOK} ${whereOf([`id = ${p.add(id)}`, ...owned(p, clientId)])}`, p.values);
    return rows[0] ?? null;
  }

  listPage(clientId: number | null, offset: number, limit: number): Promise<Page<Webhook>> {
    const p = new SqlParams();
    const where = whereOf(owned(p, clientId));
    return findPage<Webhook>(
      {
        db: this.ds,
        select: [SELECT_WEBHOOK, where, 'ORDER BY id'].filter(Boolean).join(' '),
        count: ['SELECT count(*)::int AS n FROM webhook', where].filter(Boolean).join(' '),
        params: p.values,
      },
      offset,
      limit,
    );
  }

  /**
   * Changes the given fields; false when no such webhook. Turning a webhook on clears why the
   * service turned it off and its run of failures, so it gets a fresh 5 days.
   */
  async update(id: number, clientId: number | null, patch: Partial<Omit<WebhookFields, 'clientId'>>): Promise<boolean> {
    const p = new SqlParams();
    const sets = [...assignments(patch, WEBHOOK.names(), p), 'updated_at = now()'];
    if (patch.isActive === true) sets.push('disabled_reason = NULL', 'disabled_at = NULL', 'failing_since = NULL');
    const where = whereOf([`id = ${p.add(id)}`, ...owned(p, clientId)]);
    const [, affected]: [unknown[], number] = await this.ds.query(`UPDATE webhook SET ${sets.join(', ')} ${where}`, p.values);
    return affected > 0;
  }

  /** Deletes the webhook and its deliveries; false when no such webhook. */
  async delete(id: number, clientId: number | null): Promise<boolean> {
    const p = new SqlParams();
    const [, affected]: [unknown[], number] = await this.ds.query(`DELETE FROM webhook ${whereOf([`id = ${p.add(id)}`, ...owned(p, clientId)])}`, p.values);
    return affected > 0;
  }

  /** The new secret signs from now on; the current one keeps signing for `graceHours`. False when no such webhook. */
  async rotateSecret(id: number, clientId: number | null, secret: string, graceHours: number): Promise<boolean> {
    const p = new SqlParams();
    const where = whereOf([`id = ${p.add(id)}`, ...owned(p, clientId)]);
    const [, affected]: [unknown[], number] = await this.ds.query(
      `UPDATE webhook SET previous_secret = secret, previous_secret_expires_at = now() + make_interval(hours => ${p.add(graceHours)}),
         secret = ${p.add(secret)}, updated_at = now() ${where}`,
      p.values,
    );
    return affected > 0;
  }

  /** Deliveries by id; a client key's, only those of its client's webhooks. */
  listDeliveries(
    filter: { webhookId?: number; status?: DeliveryStatus },
    clientId: number | null,
    offset: number,
    limit: number,
  ): Promise<Page<WebhookDelivery>> {
    const p = new SqlParams();
    const conds: string[] = [];
    if (filter.webhookId !== undefined) conds.push(`webhook_id = ${p.add(filter.webhookId)}`);
    if (filter.status !== undefined) conds.push(`status = ${p.add(filter.status)}`);
    if (clientId !== null) conds.push(`webhook_id IN (SELECT id FROM webhook ${whereOf(owned(p, clientId))})`);
    const where = whereOf(conds);
    return findPage<WebhookDelivery>(
      { db: this.ds, select: `${SELECT_DELIVERY} ${where} ORDER BY id`, count: `SELECT count(*)::int AS n FROM webhook_delivery ${where}`, params: p.values },
      offset,
      limit,
    );
  }

  /**
   * Makes the delivery due now (whatever its status); its attempts keep counting. Null when no
   * such delivery, else whether its webhook is active (an inactive webhook's delivery waits).
   */
  async redeliver(id: number, clientId: number | null): Promise<{ webhookActive: boolean } | null> {
    const p = new SqlParams();
    const where = whereOf([`d.id = ${p.add(id)}`, 'w.id = d.webhook_id', ...owned(p, clientId, 'w.')]);
    // TypeORM returns [rows, affectedCount] for UPDATE on PostgreSQL.
    const [rows]: [{ active: boolean }[], number] = await this.ds.query(
      `UPDATE webhook_delivery d SET status = 'pending', next_attempt_at = now(), updated_at = now()
         FROM webhook w ${where} RETURNING w.is_active AS active`,
      p.values,
    );
    return rows.length ? { webhookActive: rows[0].active } : null;
  }
}
