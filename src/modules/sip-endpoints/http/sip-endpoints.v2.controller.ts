import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../../../common/id.pipe';
import { RequireScope } from '../../auth/http/auth.decorators';
import { SipEndpointsService } from '../sip-endpoints.service';
import { CreateSipEndpointDto, SipEndpointListQuery, UpdateSipEndpointDto } from './dto/sip-endpoint.dto';
import { SipEndpointView, presentSipEndpoint } from './sip-endpoint.presenter';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { ApiCreated, ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';

/** Management of virtual numbers (scope admin). */
@ApiTags('management: sip endpoints')
@RequireScope('admin')
@ApiKeyErrors()
@Controller('v2/sip-endpoint')
export class SipEndpointsManagementController {
  constructor(private readonly endpoints: SipEndpointsService) {}

  @Post('create')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a virtual number (data: {id}); 409 when the number exists',
    description: 'Refuses with 400 naming each invalid field; 413 above the body limit.',
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  async create(@Body() dto: CreateSipEndpointDto): Promise<{ id: number }> {
    return { id: await this.endpoints.createEndpoint(dto) };
  }

  @Post('update/:id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Change the given fields of a virtual number (data: [])',
    description: 'Refuses with 400 naming each invalid field (also an id that is not a positive integer); 404 when there is no such record.',
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 409, 413)
  @ApiIdParam('id')
  async update(@Param('id', IdPipe) id: number, @Body() dto: UpdateSipEndpointDto): Promise<void> {
    await this.endpoints.updateEndpoint(id, dto);
  }

  @Get()
  @ApiOperation({
    summary: 'List virtual numbers by id ascending (data: {list, next, total})',
    description: 'Refuses with 400 an offset below 0, a limit outside 1..100 or a malformed filter.',
  })
  @ApiEnvelopeList(SipEndpointView)
  @ApiErrors(400)
  async list(@Query() q: SipEndpointListQuery) {
    const page = await this.endpoints.listEndpoints({ isActive: q.isActive }, q.offset, q.limit);
    return { ...page, list: page.list.map(presentSipEndpoint) };
  }

  @Get('detail/:id')
  @ApiOperation({
    summary: 'Read one virtual number',
    description: 'Refuses an id that is not a positive integer (400); 404 when there is no such record.',
  })
  @ApiEnvelope(SipEndpointView)
  @ApiErrors(400, 404)
  @ApiIdParam('id')
  async detail(@Param('id', IdPipe) id: number): Promise<SipEndpointView> {
    return presentSipEndpoint(await this.endpoints.getEndpoint(id));
  }
}
