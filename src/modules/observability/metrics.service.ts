import { DATABASE_SOURCE, reportDatabaseError } from '../../common/outage-log';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { DataSource } from 'typeorm';
import type { QueueConsumerReport } from '../queue/domain/queue-definition';
import { JobQueueService } from '../queue/job-queue.service';

/** Route label of requests no route matched: one series, whatever the path (bounded cardinality). */
export const UNMATCHED_ROUTE = '<unmatched>';

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * Prometheus metrics of this instance in its own registry (several apps in one process, as in tests, never collide): process and
 * Node.js defaults, HTTP requests by route pattern, method and status, the database pool, and the job queues (fleet-wide, read at scrape).
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly logger = new Logger('Metrics');
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;
  /**
   * The children of both metrics per route, method and status, bound once: a request then costs
   * no label validation or object. Bounded like the series themselves (route patterns, not paths).
   */
  private readonly series = new Map<string, { requests: Counter.Internal; duration: Histogram.Internal<'method' | 'route' | 'status'> }>();

  constructor(
    @Inject(DataSource) private readonly ds: DataSource,
    @Inject(JobQueueService) private readonly queue: JobQueueService,
  ) {
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern, method and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to the last byte of the response, by route pattern, method and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.registerPoolGauge();
    this.registerQueueGauges();
  }

  private registerPoolGauge(): void {
    const pool = () => (this.ds.driver as unknown as { master?: PgPool }).master;
    new Gauge({
      name: 'db_pool_connections',
      help: 'Connections of this instance to PostgreSQL, by state',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const p = pool();
        if (!p) return;
        this.set({ state: 'total' }, p.totalCount);
        this.set({ state: 'idle' }, p.idleCount);
        this.set({ state: 'waiting_clients' }, p.waitingCount);
      },
    });
  }

  private registerQueueGauges(): void {
    // Both queue gauges come from the same report: one query per scrape, shared for a second.
    let report: { at: number; rows: Promise<QueueConsumerReport[]> } | null = null;
    const readQueues = (): Promise<QueueConsumerReport[]> => {
      if (!report || Date.now() - report.at > 1000) {
        report = {
          at: Date.now(),
          rows: this.queue.report().catch((err: unknown) => {
            reportDatabaseError(DATABASE_SOURCE, err, this.logger);
            return [];
          }),
        };
      }
      return report.rows;
    };
    const registers = [this.registry];
    new Gauge({
      name: 'queue_backlog_jobs',
      help: 'Jobs waiting to run, per queue (fleet-wide)',
      labelNames: ['queue'],
      registers,
      async collect() {
        for (const q of await readQueues()) this.set({ queue: q.queue_name }, q.data.backlog);
      },
    });
    new Gauge({
      name: 'queue_consumers',
      help: 'Consumers per queue across the fleet: live (current) and required (needed)',
      labelNames: ['queue', 'kind'],
      registers,
      async collect() {
        for (const q of await readQueues()) {
          this.set({ queue: q.queue_name, kind: 'current' }, q.data.current_consumers_count);
          this.set({ queue: q.queue_name, kind: 'needed' }, q.data.needle_consumers_count);
        }
      },
    });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.series.get(key);
    if (!series) {
      const labels = { method, route, status: String(status) };
      series = { requests: this.requests.labels(labels), duration: this.duration.labels(labels) };
      this.series.set(key, series);
    }
    series.requests.inc();
    series.duration.observe(seconds);
  }
}
