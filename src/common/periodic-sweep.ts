import { Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DATABASE_SOURCE, reportDatabaseError } from './outage-log';

/**
 * A background sweep every `everyMs` on every instance, one run at a time: its timer does not keep the process alive and stops
 * with the module; a database failure is reported as an outage, and the next tick tries again.
 */
export abstract class PeriodicSweep implements OnModuleInit, OnModuleDestroy {
  protected readonly logger: Logger;
  private timer?: NodeJS.Timeout;
  private running = false;

  protected constructor(
    name: string,
    private readonly everyMs: number,
  ) {
    this.logger = new Logger(name);
  }

  /** One sweep. */
  protected abstract sweepOnce(): Promise<unknown>;

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep(), this.everyMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async sweep(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.sweepOnce();
    } catch (e: unknown) {
      reportDatabaseError(DATABASE_SOURCE, e, this.logger);
    } finally {
      this.running = false;
    }
  }
}
