import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { MetricsService, UNMATCHED_ROUTE } from '../metrics.service';

/**
 * The matched route pattern. Requests no controller matched land on Nest's catch-all
 * not-found route (a wildcard pattern; the API itself has none) or on no route at all.
 */
export function routeLabel(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' && !path.includes('*') ? path : UNMATCHED_ROUTE;
}

/**
 * Times every request to its last byte and records it under the route pattern Express matched
 * (`/v2/lead/detail/:leadId`), never the raw path, so ids do not multiply the series.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsService) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      this.metrics.observeRequest(req.method, routeLabel(req), res.statusCode, seconds);
    });
    next();
  }
}
