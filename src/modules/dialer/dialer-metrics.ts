import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { MetricsService } from '../observability/metrics.service';

/** The dialer's counters on `GET /metrics` (this instance's): leads claimed, claims released, leases expired, confirmations refused. */
@Injectable()
export class DialerMetrics {
  private readonly counter: Counter<'event'>;

  constructor(metrics: MetricsService) {
    this.counter = new Counter({
      name: 'dialer_claims_total',
      help: 'Dialer claims by event: claimed (leads handed out), released, expired (leases that ran out), refused (confirmations refused)',
      labelNames: ['event'],
      registers: [metrics.registry],
    });
    for (const event of ['claimed', 'released', 'expired', 'refused']) this.counter.inc({ event }, 0);
  }

  claimed(n: number): void {
    if (n) this.counter.inc({ event: 'claimed' }, n);
  }

  released(n: number): void {
    if (n) this.counter.inc({ event: 'released' }, n);
  }

  expired(n: number): void {
    if (n) this.counter.inc({ event: 'expired' }, n);
  }

  refused(n: number): void {
    if (n) this.counter.inc({ event: 'refused' }, n);
  }
}
