import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DomainError } from '../../common/domain-error';
import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { InjectWorkerDataSource } from '../queue/persistence/worker-database';
import { ALL_EVENTS, matchesWebhook, TEST_EVENT_TYPE } from './domain/webhook';
import { deliveryBody, FeedEvent } from './domain/feed-event';
import { WebhookEventFeed } from './persistence/event-source';
import { attemptOutcome, AttemptOutcome } from './domain/retry-schedule';
import { SendResult } from './http/webhook-sender';
import { DeliveryTarget, NewDelivery, Subscription, WebhookDeliveriesRepository } from './persistence/webhook-deliveries.repository';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';

/** Events read from the feed per dispatch transaction. */
export const DISPATCH_BATCH = 500;
/**
 * How long a dispatch starts first attempts and waits for their answers before storing the batch
 * (half the attempt timeout when that is shorter): a slow endpoint delays the feed this much at most.
 */
const FIRST_ATTEMPTS_BUDGET_MS = 2_000;
/** How often old deliveries are pruned (they follow the events' retention). */
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 10_000;

/**
 * The types the active webhooks want (test events always), or undefined for all: the feed then
 * skips the rest through its (type, position) index instead of presenting events nobody takes.
 */
function typesOf(hooks: Subscription[]): string[] | undefined {
  if (hooks.some((w) => w.events.includes(ALL_EVENTS))) return undefined;
  return [...new Set([...hooks.flatMap((w) => w.events), TEST_EVENT_TYPE])].sort();
}

const subscriptionKey = (hooks: Subscription[]) => JSON.stringify(hooks.map((w) => [w.id, w.events, w.orderIds]));

/**
 * Follows the event feed from `webhook_dispatch_cursor`, making a delivery per matching active webhook. A batch's transaction holds the
 * advisory lock (one dispatcher across instances), inserts deliveries and moves the cursor: a crash repeats it, and unique (webhook, event)
 * makes that harmless. An event goes only to webhooks created before it. Runs on instances with WORKERS > 0.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookDispatcher');
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;
  private lastPruneAt = 0;

  constructor(
    @InjectWorkerDataSource() private readonly ds: DataSource,
    private readonly repo: WebhookDeliveriesRepository,
    private readonly feed: WebhookEventFeed,
    private readonly worker: WebhookDeliveryWorker,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.workers <= 0) return;
    this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Dispatches until the feed is exhausted; returns how many events were handled. */
  async dispatchAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.dispatchOnce();
      total += n;
      if (n < DISPATCH_BATCH) return total;
    }
  }

  /**
   * One batch in one transaction; 0 when another instance holds the lock or nothing is new. First attempts to healthy webhooks run before
   * their rows are written, so a success costs one row write; rows already stored are neither sent nor stored again. Attempts outliving
   * the budget are stored leased and recorded when they answer; those not started, and a failing webhook's, are left for the worker.
   */
  async dispatchOnce(): Promise<number> {
    const { events, due, running } = await this.ds.transaction(async (m) => {
      const none = { events: 0, due: 0, running: [] };
      if (!(await this.repo.tryDispatchLock(m))) return none;
      const wanted = await this.repo.activeSubscriptions(m);
      if (wanted.length === 0) {
        // No active webhook: the cursor skips to the head unread (a webhook gets events from its creation on, a paused one none of its pause).
        // The head is read before re-reading subscriptions: if still none, every event up to it precedes any webhook active later.
        const head = await this.feed.head();
        if ((await this.repo.activeSubscriptions(m)).length === 0) await this.repo.advanceCursor(m, head);
        return none;
      }
      const after = await this.repo.cursor(m);
      const page = await this.readFeed(m, after, typesOf(wanted));
      if (page.list.length === 0) return none;
      // Read again after the feed: a webhook created or changed meanwhile (committed before an event
      // of this page began) must see the page read with its own types, so the batch is left to the next tick.
      const hooks = await this.repo.activeSubscriptions(m);
      if (subscriptionKey(hooks) !== subscriptionKey(wanted)) return none;
      const planned = this.plan(page.list, hooks, await this.clientsOfOrders(m, page.list, hooks));
      const stored = await this.repo.existingPairs(m, planned);
      const rows = planned.filter((r) => !stored.has(`${r.webhookId}:${r.eventId}`));
      const running = await this.attemptFirst(m, rows, hooks);
      const ids = await this.repo.insertDeliveries(m, rows);
      await this.repo.setCursor(m, page.next);
      return {
        events: page.list.length,
        due: rows.filter((r) => r.first === undefined).length,
        running: running.map((r) => ({ ...r, id: ids.get(`${r.row.webhookId}:${r.row.eventId}`) })),
      };
    });
    // After the commit: attempts that outlived the budget are recorded against their stored rows.
    const late = running.filter((r): r is typeof r & { id: string } => r.id !== undefined);
    this.worker.recordWhenDone(
      late.map((r) => ({ ...r.target, id: r.id, attempts: 0 })),
      late.map((r) => r.attempt),
    );
    // Rows left for the worker (a failing webhook's, attempts not started): look now, not at the next poll.
    if (due > 0) this.worker.wake();
    return events;
  }

  /** The clients of the page's orders (one statement), read only when a client's webhook is active. */
  private async clientsOfOrders(m: EntityManager, list: FeedEvent[], hooks: Subscription[]): Promise<Map<number, number>> {
    if (!hooks.some((w) => w.clientId !== null)) return new Map();
    return this.repo.clientsOfOrders(m, [...new Set(list.flatMap((e) => (e.orderId === null ? [] : [e.orderId])))]);
  }

  /**
   * The deliveries of a page: one per event and active webhook it matches (created before it); a
   * client's webhook matches only events of orders in `clients` as that client's.
   */
  private plan(list: FeedEvent[], hooks: Subscription[], clients: Map<number, number>): NewDelivery[] {
    const rows: NewDelivery[] = [];
    for (const e of list) {
      const at = Date.parse(e.timestamp);
      const ref = { ...e, orderClientId: e.orderId === null ? null : (clients.get(e.orderId) ?? null) };
      let body: string | undefined;
      for (const w of hooks) {
        if (w.createdAt.getTime() > at + 1000 || !matchesWebhook(w, ref)) continue;
        body ??= deliveryBody(e);
        rows.push({ webhookId: w.id, eventId: e.id, type: e.type, payload: body });
      }
    }
    return rows;
  }

  /**
   * Makes the first attempt of the rows of webhooks in good standing and sets each row's `first`;
   * applies the answers to the webhooks in `m`. Returns the attempts still running.
   */
  private async attemptFirst(
    m: EntityManager,
    rows: NewDelivery[],
    hooks: Subscription[],
  ): Promise<{ row: NewDelivery; target: DeliveryTarget; attempt: Promise<SendResult> }[]> {
    const byId = new Map(hooks.map((w) => [w.id, w]));
    const direct = rows.filter((r) => !byId.get(r.webhookId)!.failing);
    if (direct.length === 0) return [];
    const targets = direct.map((r) => {
      const w = byId.get(r.webhookId)!;
      return { webhookId: r.webhookId, eventId: r.eventId, payload: r.payload, url: w.url, secret: w.secret, previousSecret: w.previousSecret };
    });
    const answers = await this.worker.sendNow(targets, Math.min(FIRST_ATTEMPTS_BUDGET_MS, Math.floor(this.config.webhookTimeoutMs / 2)));
    const running: { row: NewDelivery; target: DeliveryTarget; attempt: Promise<SendResult> }[] = [];
    const answered: { webhookId: number; outcome: AttemptOutcome }[] = [];
    answers.forEach((a, i) => {
      const row = direct[i];
      if (a === null) return;
      if (a instanceof Promise) {
        row.first = { inFlightMs: this.worker.leaseMs };
        running.push({ row, target: targets[i], attempt: a });
        return;
      }
      const outcome = attemptOutcome(this.config.webhookRetryScheduleMs, 1, a);
      row.first = { outcome };
      answered.push({ webhookId: row.webhookId, outcome });
    });
    await this.worker.applyToWebhooks(m, answered);
    return running;
  }

  /**
   * The feed after the cursor. A cursor past the events' retention (the dispatcher stopped for
   * longer than EVENT_RETENTION_DAYS) restarts from the oldest retained event: deliveries already
   * made are not made again (unique per webhook and event), the expired ones cannot be.
   */
  private async readFeed(m: EntityManager, after: number, types: string[] | undefined) {
    const filter = types ? { types } : {};
    try {
      return await this.feed.read(after, DISPATCH_BATCH, filter);
    } catch (err) {
      if (!(err instanceof DomainError) || err.kind !== 'gone') throw err;
      this.logger.warn(`dispatch cursor ${after} is past the events' retention; continuing from the oldest retained event`);
      await this.repo.setCursor(m, 0);
      return this.feed.read(0, DISPATCH_BATCH, filter);
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => {
        this.running = undefined;
        this.schedule(this.config.webhookPollIntervalMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    try {
      await this.dispatchAll();
      if (Date.now() - this.lastPruneAt > PRUNE_EVERY_MS) {
        await this.repo.pruneOlderThan(this.ds.manager, this.config.eventRetentionDays, PRUNE_BATCH);
        this.lastPruneAt = Date.now();
      }
    } catch (err) {
      // An outage is logged once for the pool (down, then up), not once per poll.
      reportDatabaseError(DATABASE_SOURCE, err, this.logger);
    }
  }
}
