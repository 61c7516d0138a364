import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../../../common/id.pipe';
import { Isolation } from '../../../common/isolation';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { RequireScope } from '../../auth/http/auth.decorators';
import { StatusCataloguesService } from '../status-catalogues.service';
import { CreateLeadStatusDto, UpdateLeadStatusDto } from './dto/status.dto';
import { LeadStatusView, presentLeadStatus } from './lead.presenter';
import { ApiCreated, ApiEnvelope, ApiEnvelopeArray, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';

/**
 * The lead status catalogue (the call statuses' routes are the calls module's). Reading needs only
 * the `api` scope: integrators need the ids to set `statusId`; it is schema, not customer data, so
 * client keys read it alike. Changing it is management (scope `admin`).
 */
@ApiTags('status catalogues')
@ApiKeyErrors()
@Controller('v2')
export class StatusCataloguesV2Controller {
  constructor(private readonly statuses: StatusCataloguesService) {}

  @Get('lead-status')
  @Isolation('shared')
  @ApiOperation({
    summary: 'Lead statuses: id (the statusId), code, title, category (in-progress, qualified, rejected, closed), isDefault',
    description: 'Takes no parameters; only the key is checked (401, 403).',
  })
  @ApiEnvelopeArray(LeadStatusView)
  async leadStatuses() {
    return (await this.statuses.leadStatuses()).map(presentLeadStatus);
  }

  @Get('lead-status/detail/:id')
  @Isolation('shared')
  @ApiOperation({
    summary: 'One lead status',
    description: 'Refuses an id that is not a positive integer (400); 404 when there is no such record.',
  })
  @ApiEnvelope(LeadStatusView)
  @ApiErrors(400, 404)
  @ApiIdParam('id')
  async leadStatus(@Param('id', IdPipe) id: number) {
    return presentLeadStatus(await this.statuses.leadStatus(id));
  }

  @Post('lead-status/create')
  @RequireScope('admin')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a lead status (scope admin; data: {id}). isDefault moves the default to it; 409 when the code is taken',
    description: 'Refuses with 400 naming each invalid field; 413 above the body limit.',
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  async createLeadStatus(@Body() dto: CreateLeadStatusDto): Promise<{ id: number }> {
    return { id: await this.statuses.createLeadStatus(dto) };
  }

  @Post('lead-status/update/:id')
  @RequireScope('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Change the given fields of a lead status (scope admin; data: []). The catalogue keeps exactly one in-progress default',
    description: 'Refuses with 400 naming each invalid field (also an id that is not a positive integer); 404 when there is no such record.',
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 409, 413)
  @ApiIdParam('id')
  async updateLeadStatus(@Param('id', IdPipe) id: number, @Body() dto: UpdateLeadStatusDto): Promise<void> {
    await this.statuses.updateLeadStatus(id, dto);
  }
}
