import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../../../common/id.pipe';
import { RequireScope } from '../../auth/http/auth.decorators';
import { AgentGroupsService } from '../agent-groups.service';
import { AgentGroupDetailView, AgentGroupListItemView, presentAgentGroupDetail, presentAgentGroupListItem } from './agent-group.presenter';
import { AgentGroupListQuery, CreateAgentGroupDto, UpdateAgentGroupDto } from './dto/agent-group.dto';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { Access, Isolation } from '../../../common/isolation';
import type { ClientAccess } from '../../../common/auth-context';
import { ApiCreated, ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';

/** Management of agent groups (scope admin). Declared before the reader so `create`/`update` never reach `:id`. */
@ApiTags('management: agent groups')
@RequireScope('admin')
@ApiKeyErrors()
@Controller('v2/agent-group')
export class AgentGroupsManagementController {
  constructor(private readonly groups: AgentGroupsService) {}

  @Post('create')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an agent group (data: {id}); agentIds must name existing users',
    description: 'Refuses with 400 naming each invalid field; 413 above the body limit.',
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  async create(@Body() dto: CreateAgentGroupDto): Promise<{ id: number }> {
    return { id: await this.groups.createGroup(dto) };
  }

  @Post('update/:id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Change an agent group (data: []); names merge per language, agentIds replaces the membership',
    description: 'Refuses with 400 naming each invalid field (also an id that is not a positive integer); 404 when there is no such record.',
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 413)
  @ApiIdParam('id')
  async update(@Param('id', IdPipe) id: number, @Body() dto: UpdateAgentGroupDto): Promise<void> {
    await this.groups.updateGroup(id, dto);
  }
}

/** API.md "Agent groups": detail and list (scope api). A client key reaches the groups assigned to its orders. */
@ApiTags('agent groups')
@ApiKeyErrors()
@Isolation('scoped')
@Controller('v2/agent-group')
export class AgentGroupsV2Controller {
  constructor(private readonly groups: AgentGroupsService) {}

  @Get()
  @ApiOperation({
    summary: 'List agent groups by id ascending (data: {list, next, total}; total honours agentId)',
    description:
      "A client key lists (and total counts) only the groups in its client's orders' agentGroupIds. " +
      'Refuses with 400 an offset below 0, a limit outside 1..100 or a malformed filter.',
  })
  @ApiEnvelopeList(AgentGroupListItemView)
  @ApiErrors(400)
  async list(@Access() access: ClientAccess, @Query() q: AgentGroupListQuery) {
    const page = await this.groups.listGroups(access, { agentId: q.agentId }, q.offset, q.limit);
    return { ...page, list: page.list.map(presentAgentGroupListItem) };
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Read one agent group (detail form: dates dd.mm.yyyy hh:mm, createdBy/updatedBy)',
    description:
      'Refuses an id that is not a positive integer (400); 404 when there is no such record, or, for a client key, ' +
      "when the group is not in its client's orders' agentGroupIds.",
  })
  @ApiEnvelope(AgentGroupDetailView)
  @ApiErrors(400, 404)
  @ApiIdParam('id')
  async detail(@Access() access: ClientAccess, @Param('id', IdPipe) id: number): Promise<AgentGroupDetailView> {
    return presentAgentGroupDetail(await this.groups.getGroup(access, id));
  }
}
