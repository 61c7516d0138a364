import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../../../common/id.pipe';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { ApiCreated, ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';
import { PageQuery } from '../../../common/query';
import { RequireScope } from '../../auth/http/auth.decorators';
import { ClientsService } from '../clients.service';
import { ClientView, presentClient } from './client.presenter';
import { CreateClientDto, UpdateClientDto } from './dto/client.dto';

/** Management of the call center's clients (scope admin): orders and client keys name them by clientId. */
@ApiTags('management: clients')
@RequireScope('admin')
@ApiKeyErrors()
@Controller('v2/client')
export class ClientsManagementController {
  constructor(private readonly clients: ClientsService) {}

  @Post('create')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a client (data: {id})',
    description: 'Refuses with 400 a name that is empty, blank or longer than 255 characters; 409 when another client has the name (ignoring case).',
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  async create(@Body() dto: CreateClientDto): Promise<{ id: number }> {
    return { id: await this.clients.createClient(dto.name) };
  }

  @Post('update/:id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Rename a client (data: [])',
    description:
      'Refuses with 400 an invalid name or an id that is not a positive integer; 404 when there is no such client; ' +
      '409 when another client has the name (ignoring case).',
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 409, 413)
  @ApiIdParam('id')
  async update(@Param('id', IdPipe) id: number, @Body() dto: UpdateClientDto): Promise<void> {
    await this.clients.renameClient(id, dto.name);
  }

  @Get('detail/:id')
  @ApiOperation({ summary: 'One client', description: 'Refuses an id that is not a positive integer (400); 404 when there is no such client.' })
  @ApiEnvelope(ClientView)
  @ApiErrors(400, 404)
  @ApiIdParam('id')
  async detail(@Param('id', IdPipe) id: number): Promise<ClientView> {
    return presentClient(await this.clients.getClient(id));
  }

  @Get()
  @ApiOperation({
    summary: 'Clients by id ascending (data: {list, next, total})',
    description: 'Refuses with 400 an offset below 0 or a limit outside 1..100.',
  })
  @ApiEnvelopeList(ClientView)
  @ApiErrors(400)
  async list(@Query() q: PageQuery) {
    const page = await this.clients.listClients(q.offset, q.limit);
    return { ...page, list: page.list.map(presentClient) };
  }
}
