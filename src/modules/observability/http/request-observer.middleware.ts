import { Inject, Injectable, Logger, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { assignRequestId } from '../../../common/request-id';
import { APP_CONFIG, AppConfig } from '../../../config/app.config';
import type { AuthedRequest } from '../../../common/auth-context';
import { loggedPath, requestLogger } from '../logging';
import { MetricsService, UNMATCHED_ROUTE } from '../metrics.service';

export type ObservedRequest = AuthedRequest & { requestId?: string };

/**
 * The matched route pattern. Requests no controller matched land on Nest's catch-all
 * not-found route (a wildcard pattern; the API itself has none) or on no route at all.
 */
export function routeLabel(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' && !path.includes('*') ? path : UNMATCHED_ROUTE;
}

/**
 * Every request gets a request id (the caller's sane `X-Request-Id`, else a new one), echoed and logged; once sent, its timing is
 * recorded under the route pattern (never the raw path, so ids do not multiply the series) and one access-log line written
 * (method, path, status, duration, key, id; never bodies, which carry customers' phones and names).
 */
@Injectable()
export class RequestObserverMiddleware implements NestMiddleware {
  private readonly logger = new Logger('HTTP');

  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  use(req: ObservedRequest, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    const requestId = assignRequestId(req, res);
    req.log = requestLogger(this.config, requestId);
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = routeLabel(req);
      if (this.config.metricsEnabled) this.metrics.observeRequest(req.method, route, res.statusCode, seconds);
      if (this.config.accessLog) this.logAccess(req, res.statusCode, seconds, requestId);
    });
    next();
  }

  private logAccess(req: ObservedRequest, status: number, seconds: number, requestId: string): void {
    const ms = Math.round(seconds * 10_000) / 10;
    const keyId = req.apiKey?.id ?? null;
    const path = loggedPath(req.originalUrl);
    if (this.config.logFormat === 'json') {
      this.logger.log({ requestId, method: req.method, path, status, durationMs: ms, apiKeyId: keyId });
    } else {
      this.logger.log(`${req.method} ${path} ${status} ${ms}ms key=${keyId ?? '-'} id=${requestId}`);
    }
  }
}
