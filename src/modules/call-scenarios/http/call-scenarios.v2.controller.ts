import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../../../common/id.pipe';
import { RequireScope } from '../../auth/http/auth.decorators';
import { CallScenariosService } from '../call-scenarios.service';
import { CallScenarioView, presentCallScenario } from './call-scenario.presenter';
import { CallScenarioListQuery, CreateCallScenarioDto, UpdateCallScenarioDto } from './dto/call-scenario.dto';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { ApiCreated, ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';

/** Management of call scenarios (scope admin). */
@ApiTags('management: call scenarios')
@RequireScope('admin')
@ApiKeyErrors()
@Controller('v2/call-scenario')
export class CallScenariosManagementController {
  constructor(private readonly scenarios: CallScenariosService) {}

  @Post('create')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a call scenario (data: {id})',
    description: 'Refuses with 400 naming each invalid field; 413 above the body limit.',
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  async create(@Body() dto: CreateCallScenarioDto): Promise<{ id: number }> {
    return { id: await this.scenarios.createScenario(dto) };
  }

  @Post('update/:id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Change the given fields of a call scenario (data: [])',
    description: 'Refuses with 400 naming each invalid field (also an id that is not a positive integer); 404 when there is no such record.',
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 413)
  @ApiIdParam('id')
  async update(@Param('id', IdPipe) id: number, @Body() dto: UpdateCallScenarioDto): Promise<void> {
    await this.scenarios.updateScenario(id, dto);
  }

  @Get()
  @ApiOperation({
    summary: 'List call scenarios by id ascending (data: {list, next, total})',
    description: 'Refuses with 400 an offset below 0, a limit outside 1..100 or a malformed filter.',
  })
  @ApiEnvelopeList(CallScenarioView)
  @ApiErrors(400)
  async list(@Query() q: CallScenarioListQuery) {
    const page = await this.scenarios.listScenarios({ isActive: q.isActive }, q.offset, q.limit);
    return { ...page, list: page.list.map(presentCallScenario) };
  }

  @Get('detail/:id')
  @ApiOperation({
    summary: 'Read one call scenario',
    description: 'Refuses an id that is not a positive integer (400); 404 when there is no such record.',
  })
  @ApiEnvelope(CallScenarioView)
  @ApiErrors(400, 404)
  @ApiIdParam('id')
  async detail(@Param('id', IdPipe) id: number): Promise<CallScenarioView> {
    return presentCallScenario(await this.scenarios.getScenario(id));
  }
}
