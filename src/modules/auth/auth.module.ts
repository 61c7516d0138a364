import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyGuard } from './http/api-key.guard';
import { ApiKeysController } from './http/api-keys.controller';
import { ApiKeysRepository } from './persistence/api-keys.repository';

@Global()
@Module({
  controllers: [ApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [ApiKeysService],
})
export class AuthModule {}
