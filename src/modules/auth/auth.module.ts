import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ClientsModule } from '../clients/clients.module';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyGuard } from './http/api-key.guard';
import { ApiKeysManagementController } from './http/api-keys.v2.controller';
import { ApiKeysRepository } from './persistence/api-keys.repository';

@Global()
@Module({
  // A client key's client must exist: asked of the clients module.
  imports: [ClientsModule],
  controllers: [ApiKeysManagementController],
  providers: [ApiKeysRepository, ApiKeysService, { provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [ApiKeysService],
})
export class AuthModule {}
