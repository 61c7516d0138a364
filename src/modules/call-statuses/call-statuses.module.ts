import { Module } from '@nestjs/common';
import { CallStatusesService } from './call-statuses.service';
import { CallStatusesV2Controller } from './http/call-statuses.v2.controller';
import { CallStatusesRepository } from './persistence/call-statuses.repository';

/** The call status catalogue: the outcomes calls report, with their redial rules; read by calls, checked by orders' redial rules. */
@Module({
  controllers: [CallStatusesV2Controller],
  providers: [CallStatusesService, CallStatusesRepository],
  exports: [CallStatusesService],
})
export class CallStatusesModule {}
