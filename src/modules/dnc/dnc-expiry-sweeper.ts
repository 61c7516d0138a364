import { Inject, Injectable } from '@nestjs/common';
import { PeriodicSweep } from '../../common/periodic-sweep';
import { APP_CONFIG, type AppConfig } from '../../config/app.config';
import { DncService } from './dnc.service';

/** Every DNC_EXPIRY_SWEEP_MS on every instance: expired do-not-call entries release the leads they held (instances share the work by locks). */
@Injectable()
export class DncExpirySweeper extends PeriodicSweep {
  constructor(
    private readonly dnc: DncService,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'dncExpirySweepMs'>,
  ) {
    super('DncExpirySweeper', config.dncExpirySweepMs);
  }

  protected sweepOnce(): Promise<unknown> {
    return this.dnc.applyExpiries();
  }
}
