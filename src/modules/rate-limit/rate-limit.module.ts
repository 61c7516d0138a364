import { Global, Module } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { PgThrottlerStorage } from './persistence/pg-throttler.storage';
import { RATE_LIMITER, RateLimitGuard } from './http/rate-limit.guard';

/**
 * Per-API-key rate limiting, off unless `RATE_LIMIT_REQUESTS` is set. The limiter is not a
 * global guard of its own: the API key guard calls it after authenticating, so the budget is
 * the key's whatever order Nest runs global guards in.
 */
@Global()
@Module({
  providers: [
    {
      provide: RATE_LIMITER,
      inject: [APP_CONFIG, DataSource, Reflector],
      useFactory: async (config: AppConfig, ds: DataSource, reflector: Reflector): Promise<RateLimitGuard | null> => {
        if (!config.rateLimitRequests) return null;
        const storage = new PgThrottlerStorage(ds);
        const options = { throttlers: [{ name: 'default', limit: config.rateLimitRequests, ttl: config.rateLimitWindowSeconds * 1000 }], storage };
        const guard = new RateLimitGuard(options, storage, reflector);
        await guard.onModuleInit();
        return guard;
      },
    },
  ],
  exports: [RATE_LIMITER],
})
export class RateLimitModule {}
