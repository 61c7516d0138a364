import { Inject, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { HttpMetricsMiddleware } from './http/http-metrics.middleware';
import { MetricsController } from './http/metrics.controller';
import { MetricsService } from './metrics.service';

/** `GET /metrics` for Prometheus; HTTP timing on every request unless METRICS_ENABLED=false. */
@Module({
  controllers: [MetricsController],
  providers: [MetricsService, HttpMetricsMiddleware],
  exports: [MetricsService],
})
export class MetricsModule implements NestModule {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  configure(consumer: MiddlewareConsumer): void {
    if (this.config.metricsEnabled) consumer.apply(HttpMetricsMiddleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}
