import { Injectable } from '@nestjs/common';
import { PeriodicSweep } from '../../common/periodic-sweep';
import { DialerService } from './dialer.service';

/** How often each instance deletes expired claims (their leads are claimable again the moment the lease ends, sweep or not). */
const SWEEP_EVERY_MS = 30_000;

/** Every SWEEP_EVERY_MS on every instance: expired claims are deleted and counted (a delete of the same rows twice finds none). */
@Injectable()
export class DialerLeaseSweeper extends PeriodicSweep {
  constructor(private readonly dialer: DialerService) {
    super('DialerLeaseSweeper', SWEEP_EVERY_MS);
  }

  protected sweepOnce(): Promise<unknown> {
    return this.dialer.sweepExpired();
  }
}
