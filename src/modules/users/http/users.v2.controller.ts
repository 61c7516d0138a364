import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IdPipe } from '../../../common/id.pipe';
import { RequireScope } from '../../auth/http/auth.decorators';
import { UsersService } from '../users.service';
import { CreateUserDto, UpdateUserDto, UserListQuery } from './dto/user.dto';
import { UserView, presentUser } from './user.presenter';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { Access, Isolation } from '../../../common/isolation';
import type { ClientAccess } from '../../../common/auth-context';
import { ApiCreated, ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiIdParam, ApiKeyErrors, ApiUpdated } from '../../../common/openapi/envelope.decorators';

/** API.md "Users": detail and list (scope api). A client key reaches the users assigned to its orders. */
@ApiTags('users')
@ApiKeyErrors()
@Isolation('scoped')
@Controller('v2/user')
export class UsersV2Controller {
  constructor(private readonly users: UsersService) {}

  @Get('detail/:userId')
  @ApiOperation({
    summary: 'Read one user (data: User)',
    description:
      'Refuses an id that is not a positive integer (400); 404 when there is no such record, or, for a client key, ' +
      "when the user is not assigned to the client's orders (by agentUserIds or through agentGroupIds).",
  })
  @ApiEnvelope(UserView)
  @ApiErrors(400, 404)
  @ApiIdParam('userId')
  async detail(@Access() access: ClientAccess, @Param('userId', IdPipe) userId: number): Promise<UserView> {
    return presentUser(await this.users.getUser(access, userId));
  }

  @Get('list')
  @ApiOperation({
    summary: 'List users by id ascending (data: {list: User[], next, total})',
    description:
      "A client key lists (and total counts) only the users assigned to the client's orders. " +
      'Refuses with 400 an offset below 0, a limit outside 1..100 or a malformed filter.',
  })
  @ApiEnvelopeList(UserView)
  @ApiErrors(400)
  async list(@Access() access: ClientAccess, @Query() q: UserListQuery) {
    const page = await this.users.listUsers(access, { accessGroup: q.accessGroup, isActive: q.isActive }, q.offset, q.limit);
    return { ...page, list: page.list.map(presentUser) };
  }
}

/** Management of users (scope admin). */
@ApiTags('management: users')
@RequireScope('admin')
@ApiKeyErrors()
@Controller('v2/user')
export class UsersManagementController {
  constructor(private readonly users: UsersService) {}

  @Post('create')
  @Idempotent()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a user (data: {id}); 409 when the e-mail is taken (case-insensitively)',
    description: 'Refuses with 400 naming each invalid field; 413 above the body limit.',
  })
  @ApiCreated()
  @ApiErrors(400, 409, 413)
  async create(@Body() dto: CreateUserDto): Promise<{ id: number }> {
    return { id: await this.users.createUser(dto) };
  }

  @Post('update/:userId')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Change the given fields of a user (data: []); null clears a nullable field',
    description: 'Refuses with 400 naming each invalid field (also an id that is not a positive integer); 404 when there is no such record.',
  })
  @ApiUpdated()
  @ApiErrors(400, 404, 409, 413)
  @ApiIdParam('userId')
  async update(@Param('userId', IdPipe) userId: number, @Body() dto: UpdateUserDto): Promise<void> {
    await this.users.updateUser(userId, dto);
  }
}
