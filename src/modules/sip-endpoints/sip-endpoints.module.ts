import { Module } from '@nestjs/common';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { SipEndpointsManagementController } from './http/sip-endpoints.v2.controller';
import { sipEndpointsDemoSeed } from './sip-endpoints.seed';
import { SipEndpointsRepository } from './persistence/sip-endpoints.repository';
import { SipEndpointsService } from './sip-endpoints.service';

@Module({
  controllers: [SipEndpointsManagementController],
  providers: [SipEndpointsRepository, SipEndpointsService],
  exports: [SipEndpointsService],
})
export class SipEndpointsModule {
  constructor(seeder: DemoSeeder) {
    seeder.add(sipEndpointsDemoSeed);
  }
}
