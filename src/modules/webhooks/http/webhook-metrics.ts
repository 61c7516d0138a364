import { Injectable, Logger } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { DATABASE_SOURCE, reportDatabaseError } from '../../../common/outage-log';
import { MetricsService } from '../../observability/metrics.service';
import { WebhookDeliveriesRepository } from '../persistence/webhook-deliveries.repository';

/**
 * The delivery backlog on `GET /metrics`, fleet-wide, read at scrape time in one query (partial index of pending rows):
 * `webhook_deliveries_pending` and `webhook_delivery_oldest_due_seconds` (growing: workers not keeping up, or a database or network problem).
 */
@Injectable()
export class WebhookMetrics {
  private readonly logger = new Logger('WebhookMetrics');

  constructor(metrics: MetricsService, ds: DataSource, repo: WebhookDeliveriesRepository) {
    let read: { at: number; value: Promise<{ pending: number; oldestDueSeconds: number } | null> } | null = null;
    const backlog = () => {
      if (!read || Date.now() - read.at > 1000) {
        read = {
          at: Date.now(),
          value: repo.backlog(ds.manager).catch((err: unknown) => {
            reportDatabaseError(DATABASE_SOURCE, err, this.logger);
            return null;
          }),
        };
      }
      return read.value;
    };
    const registers = [metrics.registry];
    new Gauge({
      name: 'webhook_deliveries_pending',
      help: 'Webhook deliveries not yet delivered or failed (fleet-wide)',
      registers,
      async collect() {
        const b = await backlog();
        if (b) this.set(b.pending);
      },
    });
    new Gauge({
      name: 'webhook_delivery_oldest_due_seconds',
      help: 'How long the most overdue pending webhook delivery has been due (fleet-wide)',
      registers,
      async collect() {
        const b = await backlog();
        if (b) this.set(b.oldestDueSeconds);
      },
    });
  }
}
