import { Global, Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';
import { IdempotentWrites } from './idempotent-writes';

@Global()
@Module({ providers: [IdempotencyStore, IdempotencyInterceptor, IdempotentWrites], exports: [IdempotencyStore, IdempotencyInterceptor, IdempotentWrites] })
export class IdempotencyModule {}
