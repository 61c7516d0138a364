import { Module } from '@nestjs/common';
import { LeadsModule } from '../leads/leads.module';
import { ObservabilityModule } from '../observability/observability.module';
import { DialerLeaseSweeper } from './dialer-lease-sweeper';
import { DialerMetrics } from './dialer-metrics';
import { DialerService } from './dialer.service';
import { DialerV2Controller } from './http/dialer.v2.controller';
import { DialerClaimsRepository } from './persistence/dialer-claims.repository';

/** The dialer's side (scope telephony): claims of due leads with a lease, release, confirmation, the operators' list of claims. */
@Module({
  imports: [LeadsModule, ObservabilityModule],
  controllers: [DialerV2Controller],
  providers: [DialerClaimsRepository, DialerService, DialerMetrics, DialerLeaseSweeper],
  exports: [DialerService],
})
export class DialerModule {}
