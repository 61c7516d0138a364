import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { DncService } from './dnc.service';

/** Every DNC_EXPIRY_SWEEP_MS on every instance: expired do-not-call entries release the leads they held (instances share the work by locks). */
@Injectable()
export class DncExpirySweeper implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('DncExpirySweeper');
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly dnc: DncService,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'dncExpirySweepMs'>,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep(), this.config.dncExpirySweepMs);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async sweep(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.dnc.applyExpiries();
    } catch (e: unknown) {
      reportDatabaseError(DATABASE_SOURCE, e, this.logger);
    } finally {
      this.running = false;
    }
  }
}
