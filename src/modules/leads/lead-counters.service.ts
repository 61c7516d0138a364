import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CounterCompactor } from '../../database/counters/counter-compactor';
import { LeadAsyncJobsRepository } from './persistence/lead-async-jobs.repository';
import { LEAD_COUNTERS } from './persistence/lead-counters';

/** How long the state of a finished asynchronous creation stays readable. */
export const ASYNC_JOB_RETENTION_DAYS = 30;
const SWEEP_MS = 3_600_000;

/**
 * Background upkeep of the leads tables: folds the lead counters' deltas (CounterCompactor, every
 * `intervalMs`), and forgets finished asynchronous-creation jobs after 30 days.
 */
@Injectable()
export class LeadCountersService extends CounterCompactor implements OnModuleInit, OnModuleDestroy {
  private sweeper?: NodeJS.Timeout;

  constructor(
    ds: DataSource,
    private readonly jobs: LeadAsyncJobsRepository,
  ) {
    super(ds, [LEAD_COUNTERS], new Logger('LeadCounters'));
  }

  override onModuleInit(): void {
    super.onModuleInit();
    this.sweeper = setInterval(() => {
      this.jobs.deleteFinishedBefore(ASYNC_JOB_RETENTION_DAYS).catch((e: unknown) => reportDatabaseError(DATABASE_SOURCE, e, this.logger));
    }, SWEEP_MS);
    this.sweeper.unref();
  }

  override async onModuleDestroy(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    await super.onModuleDestroy();
  }
}
