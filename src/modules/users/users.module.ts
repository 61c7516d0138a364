import { Module } from '@nestjs/common';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { UsersManagementController, UsersV2Controller } from './http/users.v2.controller';
import { usersDemoSeed } from './users.seed';
import { UsersRepository } from './persistence/users.repository';
import { UsersService } from './users.service';

@Module({
  controllers: [UsersV2Controller, UsersManagementController],
  providers: [UsersRepository, UsersService],
  exports: [UsersService],
})
export class UsersModule {
  constructor(seeder: DemoSeeder) {
    seeder.add(usersDemoSeed);
  }
}
