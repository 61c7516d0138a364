import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { LeadStatusesService } from '../lead-statuses.service';
import { presentCallStatus, presentLeadStatus } from './lead.presenter';

/**
 * The status catalogues (created by migration). Readable with the `api` scope: integrators need
 * the codes to set `statusId` and to read call outcomes.
 */
@ApiTags('status catalogues')
@Controller('v2')
export class LeadStatusesController {
  constructor(private readonly statuses: LeadStatusesService) {}

  @Get('lead-status')
  @ApiOperation({ summary: 'Lead statuses: id (the statusId code), title, category (in-progress, qualified, rejected, closed), isDefault' })
  async leadStatuses() {
    return (await this.statuses.leadStatuses()).map(presentLeadStatus);
  }

  @Get('call-status')
  @ApiOperation({ summary: 'Call statuses: id, title, category (answered, not-answered, failed), isCallback' })
  async callStatuses() {
    return (await this.statuses.callStatuses()).map(presentCallStatus);
  }
}
