import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { type ClientAccess, UNRESTRICTED } from '../../common/auth-context';
import { Cache } from '../../common/cache';
import { DomainError, FieldError } from '../../common/domain-error';
import { Page } from '../../common/envelope';
import { IdempotentWrites } from '../../common/idempotency/idempotent-writes';
import { isUniqueViolation } from '../../common/pg-errors';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { CustomFieldsService } from '../custom-fields/custom-fields.service';
import { DEFAULT_CALL_SCHEDULE, normaliseSchedule } from './domain/call-schedule';
import { missingReferenceErrors, normaliseOrderInput, OrderChanges, OrderInput, OrderReferences, referencesOf, uniqueIds } from './domain/order';
import { slugifyOrderCode, uniqueCodeCandidate } from './domain/order-code';
import { orderClientOf } from './domain/order-client';
import type { OrderRecord } from './domain/order-record';
import { changesDialingRules } from './domain/dialing-rules';
import { CALL_ORDER_CLIENT_CODE_INDEX, CALL_ORDER_OWN_CODE_INDEX } from './persistence/call-order.entity';
import { OrdersRepository } from './persistence/orders.repository';
import { EventOutbox } from '../events/event-outbox.service';
import { UsersService } from '../users/users.service';
import { AgentGroupsService } from '../agent-groups/agent-groups.service';
import { SipEndpointsService } from '../sip-endpoints/sip-endpoints.service';
import { CallAttemptGroupsService } from '../call-attempt-groups/call-attempt-groups.service';
import { CallScenariosService } from '../call-scenarios/call-scenarios.service';
import { ClientsService } from '../clients/clients.service';
import { changedFields } from '../events/domain/event';

import type { OrderSettings } from './domain/order-settings';
import { CallStatusesService } from '../call-statuses/call-statuses.service';
import { ORDER_ERRORS, orderCodeTaken } from './domain/orders.errors';
export type { OrderSettings };

export interface CreateOrder extends OrderInput {
  serviceTitle: string;
  title: string;
  status: NonNullable<OrderInput['status']>;
  sipEndpointIds: number[];
}

// Generated codes race only with concurrent creates of similar titles; a few rounds settle it.
const CODE_ATTEMPTS = 10;
// Candidates are `base` or `base` cut to fit a suffix of up to 11 characters (`-2147483647`).
const CODE_PREFIX_LENGTH = 53;
const SETTINGS_CACHE_MAX = 10_000;
const REACH_CACHE_MAX = 1_000;
const FOREIGN_KEY_VIOLATION = '23503';

function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: unknown; driverError?: { code?: unknown } } | null;
  return e?.code === FOREIGN_KEY_VIOLATION || e?.driverError?.code === FOREIGN_KEY_VIOLATION;
}

type DialingRulesHook = (m: EntityManager, orderId: number) => Promise<void>;

/**
 * Orders (call campaigns): create and update run in one transaction (order row and member
 * tables); input rules live in domain/order.ts, custom values are checked by CustomFieldsService,
 * references by the modules that own them. `getOrderSettings` serves other modules from a short cache.
 */
@Injectable()
export class OrdersService {
  /** getOrderSettings' cache for ORDER_SETTINGS_CACHE_TTL_MS; this instance's own updates are seen at once. */
  private readonly settingsCache: Cache<number, OrderSettings>;
  /** orderIdsReached's cache per client, as fresh as the settings cache; this instance's own writes clear it. */
  private readonly reachCache: Cache<number, number[]>;
  /** What modules built on orders do, in the update's transaction, when an order's dialing rules change. */
  private readonly dialingRulesHooks: DialingRulesHook[] = [];

  constructor(
    private readonly ds: DataSource,
    private readonly repo: OrdersRepository,
    private readonly customFields: CustomFieldsService,
    private readonly idempotent: IdempotentWrites,
    private readonly events: EventOutbox,
    private readonly users: UsersService,
    private readonly agentGroups: AgentGroupsService,
    private readonly sipEndpoints: SipEndpointsService,
    private readonly attemptGroups: CallAttemptGroupsService,
    private readonly scenarios: CallScenariosService,
    private readonly clients: ClientsService,
    private readonly callStatuses: CallStatusesService,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'orderSettingsCacheTtlMs'>,
  ) {
    this.settingsCache = new Cache({ ttlMs: config.orderSettingsCacheTtlMs, max: SETTINGS_CACHE_MAX });
    this.reachCache = new Cache({ ttlMs: config.orderSettingsCacheTtlMs, max: REACH_CACHE_MAX });
  }

  /**
   * The orders `access` reaches: null when it reaches every order, else its client's order ids, cached like the order
   * settings the create path checks (a list spends no round trip on it; a move reaches other instances within the TTL).
   */
  async orderIdsReached(access: ClientAccess, m?: EntityManager): Promise<number[] | null> {
    if (access.clientId === null) return null;
    // A copy each time: callers may sort or filter what they get without touching the cached list.
    const hit = this.reachCache.get(access.clientId);
    if (hit) return [...hit];
    const ids = await this.repo.idsOfClient(access.clientId, m);
    this.reachCache.set(access.clientId, ids);
    return [...ids];
  }

  /** Another client's order answers as a missing one (same statement); unrestricted by default, for orders of leads already reached. */
  async detail(id: number, access: ClientAccess = UNRESTRICTED): Promise<OrderRecord> {
    const order = await this.repo.findById(id, undefined, access.clientId);
    if (!order) throw DomainError.notFound('Order', id);
    return order;
  }

  /** The orders of `ids` that exist, read fresh in one statement (unrestricted: for orders of leads already reached). */
  details = (ids: readonly number[]): Promise<OrderRecord[]> => this.repo.findManyById([...new Set(ids)]);

  list(access: ClientAccess, offset: number, limit: number): Promise<Page<OrderRecord>> {
    return this.repo.listPage(offset, limit, access.clientId);
  }

  /** With a client key the order is its client's (see orderClientOf). */
  async create(input: CreateOrder, access: ClientAccess): Promise<{ id: number }> {
    const changes = await this.validate(input, access, true);
    // The response is the controller's: {id}.
    const id = await this.writing(() =>
      this.idempotent.transaction(
        (m) => this.insert(m, changes, input.title),
        (created) => ({ id: created }),
      ),
    );
    this.settingsCache.delete(id);
    this.reachCache.clear();
    return { id };
  }

  /**
   * The create path inside a caller's transaction, for the demo seed: the same rules as the API.
   */
  async createWith(m: EntityManager, input: CreateOrder): Promise<number> {
    const changes = await this.validate(input, UNRESTRICTED, true, m);
    return this.insert(m, changes, input.title);
  }

  /**
   * Partial update: only the fields sent change; member sets sent are replaced as a whole. A new
   * clientId moves the order with everything under it (leads and calls hang off the order).
   */
  async update(id: number, input: OrderInput, access: ClientAccess): Promise<void> {
    const changes = await this.validate(input, access, false);
    try {
      await this.writing(() =>
        this.ds.transaction(async (m) => {
          if (!(await this.repo.lock(m, id, access.clientId))) throw DomainError.notFound('Order', id);
          if (Object.keys(changes).length === 0) return;
          const before = await this.repo.findById(id, m);
          await this.checkCodeFree(m, id, before!, changes);
          await this.repo.updateOrder(m, id, changes);
          await this.repo.replaceMembers(m, id, changes);
          await this.dialingRulesChanged(m, id, before!, changes);
          await this.appendUpdated(m, id, before!);
        }),
      );
    } finally {
      this.settingsCache.delete(id);
      this.reachCache.clear();
    }
  }

  /** A new code, or a move, must find the code free among the (new) client's orders: a clean 409; the unique indexes catch races. */
  private async checkCodeFree(m: EntityManager, id: number, before: OrderRecord, changes: OrderChanges): Promise<void> {
    const code = changes.code ?? before.code;
    const clientId = changes.clientId === undefined ? before.clientId : changes.clientId;
    if (code === before.code && clientId === before.clientId) return;
    if (await this.repo.isCodeTakenByAnother(m, code, clientId, id)) throw orderCodeTaken(code);
  }

  /** Registers what to do, in an order update's transaction, when a rule its leads are dialled by changes (changesDialingRules). */
  onDialingRulesChanged(hook: DialingRulesHook): void {
    this.dialingRulesHooks.push(hook);
  }

  private async dialingRulesChanged(m: EntityManager, id: number, before: OrderRecord, changes: OrderChanges): Promise<void> {
    if (!changesDialingRules(before, changes)) return;
    // The hooks decide with the new settings: read in this transaction, not from the cache.
    this.settingsCache.delete(id);
    for (const hook of this.dialingRulesHooks) await hook(m, id);
  }

  /**
   * Order settings for lead intake and call planning, or null when the order does not exist, cached per instance for
   * ORDER_SETTINGS_CACHE_TTL_MS (misses are not cached). Inside a transaction pass its manager, so the read never takes a second
   * pool connection while the first is held.
   */
  async getOrderSettings(orderId: number, m?: EntityManager): Promise<OrderSettings | null> {
    const hit = this.settingsCache.get(orderId);
    if (hit) return hit;
    const row = await this.repo.findSettings(orderId, m);
    if (!row) {
      this.settingsCache.delete(orderId);
      return null;
    }
    // No zone: the key is left out (OrderSettings.defaultTimeZone is optional), not null.
    const { defaultTimeZone, ...rest } = row as OrderSettings & { defaultTimeZone: string | null };
    const value: OrderSettings = { ...rest, callSchedule: normaliseSchedule(row.callSchedule), ...(defaultTimeZone ? { defaultTimeZone } : {}) };
    this.settingsCache.set(orderId, value);
    return value;
  }

  /** Every input rule, all errors at once: domain rules, the key's client, custom values, references. Reads only. */
  private async validate(input: OrderInput, access: ClientAccess, creating: boolean, m?: EntityManager): Promise<OrderChanges> {
    const owner = orderClientOf(access, input.clientId, creating);
    const normalised = normaliseOrderInput({ ...input, clientId: owner.ok ? owner.value : undefined });
    const errors: FieldError[] = [...(owner.ok ? [] : [owner.error]), ...(normalised.ok ? [] : normalised.errors)];
    const changes: OrderChanges = normalised.ok ? normalised.value : {};
    if (input.customValues !== undefined) {
      const custom = await this.customFields.validateValues(input.customValues, 'orders', 'customValues', m);
      if (custom.ok) changes.customValues = custom.value;
      else errors.push(...custom.errors);
    }
    // With bad domain input the references are still checked (raw ids), so one answer lists every problem.
    // A client key's own client exists (its key refers to it): only an unrestricted key's clientId is looked up.
    const requested = referencesOf({ ...(normalised.ok ? changes : input), clientId: access.clientId === null ? input.clientId : undefined });
    errors.push(...missingReferenceErrors(requested, await this.existingReferences(requested, access, m)));
    // The call statuses of redial rules: a shared catalogue, no client to check.
    const ruled = uniqueIds((input.redialRules ?? []).map((r) => r.statusId));
    const found = new Set(ruled.length ? await this.callStatuses.existingIds(ruled, m) : []);
    const unknown = ruled.filter((id) => !found.has(id));
    if (unknown.length) errors.push({ field: 'redialRules', message: `unknown call status ids: ${unknown.join(', ')}` });
    if (errors.length) throw DomainError.validation(errors);
    return changes;
  }

  /**
   * Which referenced ids exist, each asked of the module that owns the table: one query per kind
   * of reference sent (none for kinds not sent), however many ids. Agents and agent groups count
   * only when `access` reaches them (a client key: those of its client's orders), so an id of
   * another client's reads exactly as a missing one.
   */
  private async existingReferences(refs: OrderReferences, access: ClientAccess, m?: EntityManager): Promise<OrderReferences> {
    return {
      agentUserIds: await this.users.reachedIds(access, refs.agentUserIds, m),
      agentGroupIds: await this.agentGroups.reachedIds(access, refs.agentGroupIds, m),
      sipEndpointIds: await this.sipEndpoints.existingIds(refs.sipEndpointIds, m),
      callAttemptGroupId: await this.attemptGroups.existingIds(refs.callAttemptGroupId, m),
      callScenarioId: await this.scenarios.existingIds(refs.callScenarioId, m),
      clientId: await this.clients.existingIds(refs.clientId, m),
    };
  }

  private async insert(m: EntityManager, changes: OrderChanges, title: string): Promise<number> {
    const row = { ...changes };
    // Never "any time" by omission: a lead must not be planned at night because nobody set hours.
    if (row.callSchedule === undefined) row.callSchedule = DEFAULT_CALL_SCHEDULE;
    if (row.callAttemptGroupId === undefined) {
      const fallback = await this.attemptGroups.groupOrDefault(null, m);
      if (fallback !== null) row.callAttemptGroupId = fallback.id;
    }
    let id: number | null;
    if (row.code !== undefined) {
      id = await this.repo.insertOrder(m, { ...row, code: row.code });
      if (id === null) throw orderCodeTaken(row.code);
    } else {
      id = await this.insertWithGeneratedCode(m, row, title);
    }
    await this.repo.replaceMembers(m, id, row, true);
    // The order as detail shows it, in this transaction: the event commits with the order.
    await this.events.append(m, { type: 'order.created', orderId: id, data: { order: await this.repo.findById(id, m) } });
    return id;
  }

  /** order.updated with the fields whose value changed; none changed (a no-op update): no event. */
  private async appendUpdated(m: EntityManager, id: number, before: OrderRecord): Promise<void> {
    const after = await this.repo.findById(id, m);
    const changed = changedFields(before, after!, ['updatedAt']);
    if (changed.length) await this.events.append(m, { type: 'order.updated', orderId: id, data: { order: after, changed } });
  }

  /**
   * Code from the title: slug, then the first free of slug, slug-2, ... . Two creates may pick
   * the same candidate; the loser's insert does nothing (ON CONFLICT) and it picks again.
   */
  private async insertWithGeneratedCode(m: EntityManager, row: OrderChanges, title: string): Promise<number> {
    const base = slugifyOrderCode(title);
    const prefix = base.slice(0, CODE_PREFIX_LENGTH).replace(/-+$/, '');
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
      const code = uniqueCodeCandidate(base, await this.repo.codesStartingWith(m, prefix, row.clientId ?? null));
      const id = await this.repo.insertOrder(m, { ...row, code });
      if (id !== null) return id;
    }
    throw DomainError.conflict(ORDER_ERRORS.CODE_BUSY, 'Could not allocate an order code; retry or send a code');
  }

  /** Maps races the validation could not see: a code taken meanwhile (409), a reference deleted meanwhile (400). */
  private async writing<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err, CALL_ORDER_CLIENT_CODE_INDEX) || isUniqueViolation(err, CALL_ORDER_OWN_CODE_INDEX)) throw orderCodeTaken();
      if (isForeignKeyViolation(err)) throw DomainError.invalidField('references', 'a referenced record was deleted meanwhile; retry');
      throw err;
    }
  }
}
