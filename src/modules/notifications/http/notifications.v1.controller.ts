import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { RequireScope } from '../../auth/http/auth.decorators';
import { NotificationsService } from '../notifications.service';
import { contentOf, GroupNotificationDto, NotificationListQuery, PrivateNotificationDto, PublicNotificationDto } from './dto/notification.dto';
import { UserNotificationView, presentUserNotification } from './notification.presenter';
import { ApiEnvelope, ApiEnvelopeList, ApiErrors, ApiKeyErrors } from '../../../common/openapi/envelope.decorators';
import { Access, Isolation } from '../../../common/isolation';
import type { ClientAccess } from '../../../common/auth-context';

/**
 * v1 notifications. Sending stores one inbox delivery per recipient and the e-mail/messenger
 * deliveries their preferences ask for, then delivers those through the outbox; data is [].
 */
@ApiTags('notifications (v1)')
@ApiKeyErrors()
@Controller('v1/notification')
export class NotificationsV1Controller {
  constructor(private readonly notifications: NotificationsService) {}

  @Post('group')
  @HttpCode(200)
  @Idempotent()
  @Isolation('forbidden')
  @ApiOperation({
    summary: 'Notify the active users of an access group',
    description: 'Refuses with 400 naming each invalid field; 413 above the body limit; 403 to a client key (it would reach every client).',
  })
  @ApiEnvelope('empty', { description: 'Done; data is []' })
  @ApiErrors(400, 413)
  async group(@Access() access: ClientAccess, @Body() dto: GroupNotificationDto): Promise<void> {
    await this.notifications.send(access, { scope: 'group', group: dto.group }, contentOf(dto));
  }

  @Post('private')
  @HttpCode(200)
  @Idempotent()
  @Isolation('scoped')
  @ApiOperation({
    summary: 'Notify one user (404 when the user does not exist)',
    description: "Refuses with 400 naming each invalid field; 413 above the body limit; 404 to a client key for a user not assigned to the client's orders.",
  })
  @ApiEnvelope('empty', { description: 'Done; data is []' })
  @ApiErrors(400, 404, 413)
  async private(@Access() access: ClientAccess, @Body() dto: PrivateNotificationDto): Promise<void> {
    await this.notifications.send(access, { scope: 'private', userId: dto.user_id }, contentOf(dto));
  }

  @Post('public')
  @HttpCode(200)
  @Idempotent()
  @Isolation('forbidden')
  @ApiOperation({
    summary: 'Notify all active users',
    description: 'Refuses with 400 naming each invalid field; 413 above the body limit; 403 to a client key (it would reach every client).',
  })
  @ApiEnvelope('empty', { description: 'Done; data is []' })
  @ApiErrors(400, 413)
  async public(@Access() access: ClientAccess, @Body() dto: PublicNotificationDto): Promise<void> {
    await this.notifications.send(access, { scope: 'public' }, contentOf(dto));
  }

  @Get()
  @RequireScope('admin')
  @ApiTags('management: notifications')
  @ApiOperation({
    summary: "A user's notifications with the delivery state of each channel (scope admin)",
    description: 'Refuses with 400 an offset below 0, a limit outside 1..100 or a malformed filter.',
  })
  @ApiEnvelopeList(UserNotificationView)
  @ApiErrors(400)
  async list(@Query() q: NotificationListQuery) {
    const page = await this.notifications.listForUser(q.userId, q.offset, q.limit);
    return { ...page, list: page.list.map(presentUserNotification) };
  }
}
