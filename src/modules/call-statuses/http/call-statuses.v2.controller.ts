import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../../../common/id.pipe';
import { Isolation } from '../../../common/isolation';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { ApiCreated, ApiEnvelope, ApiEnvelopeArray, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';
import { RequireScope } from '../../auth/http/auth.decorators';
import { redialRuleOf } from '../../dialing/http/redial-rule.dto';
import { CallStatusesService } from '../call-statuses.service';
import { CallStatusView, presentCallStatus } from './call-status.presenter';
import { CreateCallStatusDto, UpdateCallStatusDto } from './dto/call-status.dto';

/** Operation ids as the published document names them: generated clients name their methods after them. */
const operationId = (method: string) => `StatusCataloguesV2Controller_${method}`;

/**
 * The call status catalogue, beside the lead statuses under one tag. Reading needs only the `api`
 * scope: integrators need the ids to read call outcomes; it is schema, not customers, so client keys
 * read it alike. Changing it is management (scope `admin`).
 */
@ApiTags('status catalogues')
@ApiKeyErrors()
@Controller('v2')
export class CallStatusesV2Controller {
  constructor(private readonly statuses: CallStatusesService) {}

  @Get('call-status')
  @Isolation('shared')
  @ApiOperation({
    operationId: operationId('callStatuses'),
    summary: 'Call statuses: id, code, title, category (answered, not-answered, failed), isCallback, isOptOut, redial',
    description: 'Takes no parameters; only the key is checked (401, 403).',
  })
  @ApiEnvelopeArray(CallStatusView)
  async callStatuses() {
    return (await this.statuses.callStatuses()).map(presentCallStatus);
  }

  @Get('call-status/detail/:id')
  @Isolation('shared')
  @ApiOperation({
    operationId: operationId('callStatus'),
    summary: 'One call status',
    description: 'Refuses an id that is not a positive integer (400); 404 when there is no such record.',
  })
  @ApiEnvelope(CallStatusView)
  @ApiErrors(400, 404)
  @ApiIdParam('id')
  async callStatus(@Param('id', IdPipe) id: number) {
    return presentCallStatus(await this.statuses.callStatus(id));
  }

  @Post('call-status/create')
  @RequireScope('admin')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    operationId: operationId('createCallStatus'),
    summary: 'Create a call status (scope admin; data: {id}); 409 when the code is taken',
    description: 'Refuses with 400 naming each invalid field; 413 above the body limit.',
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  async createCallStatus(@Body() dto: CreateCallStatusDto): Promise<{ id: number }> {
    return { id: await this.statuses.createCallStatus({ ...dto, redial: dto.redial && redialRuleOf(dto.redial) }) };
  }

  @Post('call-status/update/:id')
  @RequireScope('admin')
  @HttpCode(200)
  @ApiOperation({
    operationId: operationId('updateCallStatus'),
    summary: 'Change the given fields of a call status (scope admin; data: [])',
    description: 'Refuses with 400 naming each invalid field (also an id that is not a positive integer); 404 when there is no such record.',
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 409, 413)
  @ApiIdParam('id')
  async updateCallStatus(@Param('id', IdPipe) id: number, @Body() dto: UpdateCallStatusDto): Promise<void> {
    await this.statuses.updateCallStatus(id, { ...dto, redial: dto.redial && redialRuleOf(dto.redial) });
  }
}
