import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../../../common/id.pipe';
import { PageQuery } from '../../../common/query';
import { RequireScope } from '../../auth/http/auth.decorators';
import { CallAttemptGroupsService } from '../call-attempt-groups.service';
import { CallAttemptGroupView, presentCallAttemptGroup } from './call-attempt-group.presenter';
import { CreateCallAttemptGroupDto, UpdateCallAttemptGroupDto } from './dto/call-attempt-group.dto';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { Isolation } from '../../../common/isolation';
import { ApiCreated, ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';

/** API.md "Call attempt groups": update (scope api). Groups are shared by every client's orders: client keys get 403. */
@ApiTags('call attempt groups')
@ApiKeyErrors()
@Isolation('forbidden')
@Controller('v2/call-attempt')
export class CallAttemptGroupsV2Controller {
  constructor(private readonly groups: CallAttemptGroupsService) {}

  @Post('update/:id')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Change a call attempt group (data: []); isDefault: true moves the default here',
    description:
      'Refuses with 400 naming each invalid field (also an id that is not a positive integer); 404 when there is no such record; ' +
      "403 to a client key (a group is shared by every client's orders).",
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 413)
  @ApiIdParam('id')
  async update(@Param('id', IdPipe) id: number, @Body() dto: UpdateCallAttemptGroupDto): Promise<void> {
    await this.groups.updateGroup(id, dto);
  }
}

/** Management of call attempt groups (scope admin): create, list, detail. */
@ApiTags('management: call attempt groups')
@RequireScope('admin')
@ApiKeyErrors()
@Controller('v2/call-attempt')
export class CallAttemptGroupsManagementController {
  constructor(private readonly groups: CallAttemptGroupsService) {}

  @Post('create')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a call attempt group (data: {id}); the first group becomes the default',
    description: 'Refuses with 400 naming each invalid field; 413 above the body limit.',
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  async create(@Body() dto: CreateCallAttemptGroupDto): Promise<{ id: number }> {
    return { id: await this.groups.createGroup(dto) };
  }

  @Get()
  @ApiOperation({
    summary: 'List call attempt groups by id ascending (data: {list, next, total})',
    description: 'Refuses with 400 an offset below 0, a limit outside 1..100 or a malformed filter.',
  })
  @ApiEnvelopeList(CallAttemptGroupView)
  @ApiErrors(400)
  async list(@Query() q: PageQuery) {
    const page = await this.groups.listGroups(q.offset, q.limit);
    return { ...page, list: page.list.map(presentCallAttemptGroup) };
  }

  @Get('detail/:id')
  @ApiOperation({
    summary: 'Read one call attempt group',
    description: 'Refuses an id that is not a positive integer (400); 404 when there is no such record.',
  })
  @ApiEnvelope(CallAttemptGroupView)
  @ApiErrors(400, 404)
  @ApiIdParam('id')
  async detail(@Param('id', IdPipe) id: number): Promise<CallAttemptGroupView> {
    return presentCallAttemptGroup(await this.groups.getGroup(id));
  }
}
