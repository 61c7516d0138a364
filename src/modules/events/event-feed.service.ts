import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { type ClientAccess, UNRESTRICTED } from '../../common/auth-context';
import { DomainError } from '../../common/domain-error';
import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { FeedFilter, PublicEvent } from './domain/event';
import { leadEventOrderIds, presentEvent } from './http/event.presenter';
import { EventsRepository } from './persistence/events.repository';
import { EVENT_ERRORS } from './domain/events.errors';

/** Events numbered per sequencer statement; a backlog past it is numbered by the next ticks. */
const SEQUENCE_BATCH = 5000;
/** How often the background sequencer numbers committed events (reads also number inline). */
const SEQUENCE_INTERVAL_MS = 500;
const PRUNE_INTERVAL_MS = 10 * 60_000;
const PRUNE_BATCH = 5000;
const DAY_MS = 86_400_000;

/**
 * The ordered event feed. Events become visible once the sequencer (`event_sequence`) numbers those whose transactions committed,
 * so a reader continuing from its last position never skips one. It runs on a short interval and before every read; retention
 * deletes events older than EVENT_RETENTION_DAYS, oldest positions first.
 */
@Injectable()
export class EventFeed implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Events');
  private readonly retentionDays: number;
  private timers: NodeJS.Timeout[] = [];
  private sequencing?: Promise<unknown>;

  constructor(
    private readonly repo: EventsRepository,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'eventRetentionDays'>,
  ) {
    this.retentionDays = config.eventRetentionDays;
  }

  onApplicationBootstrap(): void {
    const report = (err: unknown) => reportDatabaseError(DATABASE_SOURCE, err, this.logger);
    this.timers.push(setInterval(() => void this.sequenceInBackground().catch(report), SEQUENCE_INTERVAL_MS));
    this.timers.push(setInterval(() => void this.prune().catch(report), PRUNE_INTERVAL_MS));
    for (const t of this.timers) t.unref();
  }

  onModuleDestroy(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  /**
   * Events after position `after` (0: from the oldest retained), at most `limit`, in commit order.
   * `next` is the position to continue from. 410 when events after `after` were deleted by retention.
   * A client key reads only its client's events (see FeedFilter), in the same order and positions.
   */
  async read(
    after: number,
    limit: number,
    filter: Omit<FeedFilter, 'clientId'>,
    access: ClientAccess = UNRESTRICTED,
  ): Promise<{ list: PublicEvent[]; next: number }> {
    await this.sequenceAll();
    const page = await this.repo.page(after, limit, access.clientId === null ? filter : { ...filter, clientId: access.clientId });
    if (after > 0 && after < page.prunedThrough) {
      throw DomainError.gone(
        EVENT_ERRORS.EXPIRED,
        `Events after position ${after} are past retention (${this.retentionDays} days; kept from position ${page.prunedThrough + 1}): ` +
          'resynchronise from the API and follow the feed from after=0',
      );
    }
    const codes = await this.repo.orderCodes(leadEventOrderIds(page.events));
    const list = page.events.map((e) => presentEvent(e, codes));
    return { list, next: list.length ? list[list.length - 1].position : after };
  }

  /** The position of the latest event numbered so far (0 when none). */
  head(): Promise<number> {
    return this.repo.head();
  }

  /** Numbers every event whose transaction has ended (batch after batch). */
  async sequenceAll(): Promise<void> {
    while ((await this.repo.sequence(SEQUENCE_BATCH)) === SEQUENCE_BATCH);
  }

  /** Deletes events older than the retention, batch after batch; returns how many. */
  async prune(): Promise<number> {
    const before = new Date(Date.now() - this.retentionDays * DAY_MS);
    let total = 0;
    for (;;) {
      const n = await this.repo.prune(before, PRUNE_BATCH);
      total += n;
      if (n < PRUNE_BATCH) return total;
    }
  }

  /** One background run at a time per instance (instances serialise on the function's advisory lock). */
  private async sequenceInBackground(): Promise<void> {
    if (this.sequencing) return;
    this.sequencing = this.sequenceAll();
    try {
      await this.sequencing;
    } finally {
      this.sequencing = undefined;
    }
  }
}
