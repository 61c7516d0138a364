import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyGuard } from './http/api-key.guard';
import { ApiKeysManagementController } from './http/api-keys.v2.controller';
import { ApiKeysRepository } from './persistence/api-keys.repository';

@Global()
@Module({
  controllers: [ApiKeysManagementController],
  providers: [ApiKeysRepository, ApiKeysService, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [ApiKeysService],
})
export class AuthModule {}
