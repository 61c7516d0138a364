import { Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { CounterSet } from './counter-set';

/** Deltas folded per statement: keeps each compaction transaction short during bursts. */
export const COMPACT_BATCH = 50_000;

/**
 * Folds the deltas of counter sets into their counters every `intervalMs` on every instance (a lock
 * per set lets one work at a time; an idle run is one short query per set). Totals are exact either
 * way: compaction keeps them cheap. A module extends this with its own sets.
 */
export abstract class CounterCompactor implements OnModuleInit, OnModuleDestroy {
  intervalMs = 1000;
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  protected constructor(
    protected readonly ds: DataSource,
    private readonly sets: readonly CounterSet[],
    protected readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.compact()
        // An outage is logged once for the pool (down, then up), not once a second per counter set.
        .catch((e: unknown) => reportDatabaseError(DATABASE_SOURCE, e, this.logger))
        .finally(() => (this.running = undefined));
    }, this.intervalMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Folds every pending delta of every set; returns how many were folded. */
  async compact(): Promise<number> {
    let total = 0;
    for (const set of this.sets) {
      for (;;) {
        const moved = await set.compact(this.ds, COMPACT_BATCH);
        total += moved;
        if (moved < COMPACT_BATCH) break;
      }
    }
    return total;
  }
}
