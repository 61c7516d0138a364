import { Module } from '@nestjs/common';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { clientsDemoSeed } from './clients.seed';
import { ClientsService } from './clients.service';
import { ClientsManagementController } from './http/clients.v2.controller';
import { ClientsRepository } from './persistence/clients.repository';

/** Clients of the call center. Exports ClientsService (existingIds) for the orders that name one. */
@Module({
  controllers: [ClientsManagementController],
  providers: [ClientsRepository, ClientsService],
  exports: [ClientsService],
})
export class ClientsModule {
  constructor(seeder: DemoSeeder) {
    seeder.add(clientsDemoSeed);
  }
}
