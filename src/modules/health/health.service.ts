import { Inject, Injectable } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { JobQueueService } from '../queue/job-queue.service';
import { ShutdownState } from './shutdown/shutdown-state';

export interface HealthComponent {
  success: boolean;
  message: string;
  data: { executionTime: number; reasonPhrase?: string; [extra: string]: unknown };
}

export interface HealthReport {
  success: boolean;
  components: Record<string, HealthComponent>;
}

async function withTimeout<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  return Promise.race([
    work(signal),
    new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error(`timed out after ${ms} ms`)), { once: true })),
  ]);
}

/**
 * Components this deployment really has: the database, the job queue (serviceMqHub),
 * and each external platform configured by URL. Terminus runs the indicators; we shape the result.
 */
@Injectable()
export class HealthService {
  constructor(
    private readonly terminus: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly ds: DataSource,
    private readonly queue: JobQueueService,
    private readonly shutdown: ShutdownState,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async check(): Promise<HealthReport> {
    const timeout = this.config.healthCheckTimeoutMs;
    const checks = [
      () =>
        this.timed('database', async () => {
          await withTimeout(timeout, () => this.ds.query('SELECT 1'));
          return {};
        }),
      () =>
        this.timed('serviceMqHub', async () => {
          const consumers = await withTimeout(timeout, () => this.queue.report());
          const failing = consumers.filter((c) => !c.success).map((c) => c.queue_name);
          if (failing.length > 0) throw Object.assign(new Error(`not enough consumers: ${failing.join(', ')}`), { extra: { consumers } });
          return { consumers };
        }),
    ];
    const platforms: [string, string | undefined][] = [
      ['telephonyPlatform', this.config.telephonyPlatformUrl],
      ['speechPlatform', this.config.speechPlatformUrl],
    ];
    for (const [key, url] of platforms) {
      if (!url) continue;
      checks.push(() =>
        this.timed(key, async () => {
          const res = await withTimeout(timeout, (signal) => fetch(url, { signal }));
          // 4xx counts too: a platform that answers 404 or 401 to its own health URL is not usable as configured.
          if (res.status >= 400) throw Object.assign(new Error(`HTTP ${res.status}`), { reasonPhrase: res.statusText });
          return { reasonPhrase: res.statusText || 'Ok' };
        }),
      );
    }
    let details: Record<string, Record<string, unknown>>;
    try {
      details = (await this.terminus.check(checks)).details as typeof details;
    } catch (err) {
      // Terminus signals a failed check by throwing 503 with the full result attached.
      const body = (err as { getResponse?: () => unknown }).getResponse?.() as { details?: typeof details } | undefined;
      if (!body?.details) throw err;
      details = body.details;
    }
    const components: Record<string, HealthComponent> = {};
    for (const [key, d] of Object.entries(details)) {
      const { status, message, executionTime, reasonPhrase, ...extra } = d as {
        status: string;
        message?: string;
        executionTime: number;
        reasonPhrase?: string;
      };
      components[key] = {
        success: status === 'up',
        message: status === 'up' ? '' : (message ?? 'unavailable'),
        data: { executionTime, ...(reasonPhrase ? { reasonPhrase } : {}), ...extra },
      };
    }
    return { success: Object.values(components).every((c) => c.success), components };
  }

  /** Readiness: why this instance should get no traffic (shutting down, database unreachable); null when ready. */
  async notReadyReason(): Promise<string | null> {
    if (this.shutdown.shuttingDown) return 'Shutting down';
    try {
      await withTimeout(this.config.healthCheckTimeoutMs, () => this.ds.query('SELECT 1'));
      return this.shutdown.shuttingDown ? 'Shutting down' : null;
    } catch {
      return 'Database unavailable';
    }
  }

  private async timed(key: string, probe: () => Promise<Record<string, unknown>>): Promise<HealthIndicatorResult> {
    const session = this.indicators.check(key);
    const started = performance.now();
    const seconds = () => Number(((performance.now() - started) / 1000).toFixed(4));
    try {
      const data = await probe();
      return session.up({ executionTime: seconds(), reasonPhrase: 'Ok', ...data });
    } catch (err) {
      const e = err as Error & { extra?: Record<string, unknown>; reasonPhrase?: string };
      return session.down({ executionTime: seconds(), message: e.message, ...(e.reasonPhrase ? { reasonPhrase: e.reasonPhrase } : {}), ...(e.extra ?? {}) });
    }
  }
}
