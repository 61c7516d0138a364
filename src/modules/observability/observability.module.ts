import { Module } from '@nestjs/common';
import { MetricsController } from './http/metrics.controller';
import { RequestObserverMiddleware } from './http/request-observer.middleware';
import { MetricsService } from './metrics.service';

/**
 * What ops watch: `GET /metrics`, a request id on every request and response, request timing (METRICS_ENABLED) and an access log
 * (ACCESS_LOG). The request observer is mounted by `configureApp` ahead of the body parser, so requests refused there are observed too.
 */
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, RequestObserverMiddleware],
  exports: [MetricsService, RequestObserverMiddleware],
})
export class ObservabilityModule {}
