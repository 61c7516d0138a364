import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Idempotent } from '../../../common/idempotency/idempotent.decorator';
import { RequireScope } from '../../auth/http/auth.decorators';
import { NotificationsService } from '../notifications.service';
import { contentOf, GroupNotificationDto, NotificationListQuery, PrivateNotificationDto, PublicNotificationDto } from './dto/notification.dto';
import { presentUserNotification } from './notification.presenter';

/**
 * v1 notifications. Sending stores one inbox delivery per recipient and the e-mail/messenger
 * deliveries their preferences ask for, then delivers those through the outbox; data is [].
 */
@ApiTags('notifications (v1)')
@Controller('v1/notification')
export class NotificationsV1Controller {
  constructor(private readonly notifications: NotificationsService) {}

  @Post('group')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({ summary: 'Notify the active users of an access group' })
  async group(@Body() dto: GroupNotificationDto): Promise<void> {
    await this.notifications.send({ scope: 'group', group: dto.group }, contentOf(dto));
  }

  @Post('private')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({ summary: 'Notify one user (404 when the user does not exist)' })
  async private(@Body() dto: PrivateNotificationDto): Promise<void> {
    await this.notifications.send({ scope: 'private', userId: dto.user_id }, contentOf(dto));
  }

  @Post('public')
  @HttpCode(200)
  @Idempotent()
  @ApiOperation({ summary: 'Notify all active users' })
  async public(@Body() dto: PublicNotificationDto): Promise<void> {
    await this.notifications.send({ scope: 'public' }, contentOf(dto));
  }

  @Get()
  @RequireScope('admin')
  @ApiTags('management: notifications')
  @ApiOperation({ summary: "A user's notifications with the delivery state of each channel (scope admin)" })
  async list(@Query() q: NotificationListQuery) {
    const page = await this.notifications.listForUser(q.userId, q.offset, q.limit);
    return { ...page, list: page.list.map(presentUserNotification) };
  }
}
