import { Global, Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';

@Global()
@Module({ providers: [IdempotencyStore, IdempotencyInterceptor], exports: [IdempotencyStore, IdempotencyInterceptor] })
export class IdempotencyModule {}
