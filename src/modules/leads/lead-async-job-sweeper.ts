import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { LeadAsyncJobsRepository } from './persistence/lead-async-jobs.repository';

/** How long the state of a finished asynchronous creation stays readable. */
export const ASYNC_JOB_RETENTION_DAYS = 30;
const SWEEP_MS = 3_600_000;

/** Forgets finished asynchronous lead creations (POST /v2/lead/async/) after 30 days, once an hour on every instance. */
@Injectable()
export class LeadAsyncJobSweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('LeadAsyncJobSweeper');
  private timer?: NodeJS.Timeout;

  constructor(private readonly jobs: LeadAsyncJobsRepository) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.jobs.deleteFinishedBefore(ASYNC_JOB_RETENTION_DAYS).catch((e: unknown) => reportDatabaseError(DATABASE_SOURCE, e, this.logger));
    }, SWEEP_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
