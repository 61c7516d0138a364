import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './http/health.controller';
import { HealthService } from './health.service';
import { ShutdownState } from './shutdown/shutdown-state';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [HealthController],
  providers: [HealthService, ShutdownState],
  exports: [ShutdownState],
})
export class HealthModule {}
