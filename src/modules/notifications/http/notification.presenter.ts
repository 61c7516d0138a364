import { ApiProperty } from '@nestjs/swagger';
import { isoDateTime } from '../../../common/dates';
import { CHANNELS, DELIVERY_STATUSES, NOTIFICATION_GROUPS, NOTIFICATION_LEVELS, NOTIFICATION_SCOPES, NOTIFICATION_TYPES } from '../domain/notification';
import type { UserNotification } from '../notifications.service';

export class DeliveryView {
  @ApiProperty({ enum: CHANNELS }) channel: string;
  @ApiProperty({ enum: DELIVERY_STATUSES, description: 'inbox: delivered; e-mail/messenger: pending, sent, failed, or skipped (channel not configured)' })
  status: string;
  @ApiProperty({ type: 'integer', description: 'send attempts made so far' }) attempts: number;
  @ApiProperty({ type: String, nullable: true, description: 'reason of the last failed attempt, or why it was skipped' }) lastError: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'ISO 8601; when it was sent (inbox: stored)' }) sentAt: string | null;
}

export class UserNotificationView {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({ enum: NOTIFICATION_TYPES }) type: string;
  @ApiProperty({ enum: NOTIFICATION_LEVELS }) level: string;
  @ApiProperty() title: string;
  @ApiProperty() text: string;
  @ApiProperty({ enum: NOTIFICATION_SCOPES, description: 'how it was addressed' }) scope: string;
  @ApiProperty({ enum: NOTIFICATION_GROUPS, nullable: true, description: 'the target group of a group notification' }) group: string | null;
  @ApiProperty({ description: 'ISO 8601' }) createdAt: string;
  @ApiProperty({ type: [DeliveryView] }) deliveries: DeliveryView[];
}

export function presentUserNotification(n: UserNotification): UserNotificationView {
  return {
    id: n.id,
    type: n.type,
    level: n.level,
    title: n.title,
    text: n.text,
    scope: n.scope,
    group: n.group,
    createdAt: isoDateTime(n.createdAt),
    deliveries: n.deliveries.map((d) => ({
      channel: d.channel,
      status: d.status,
      attempts: d.attempts,
      lastError: d.lastError,
      sentAt: isoDateTime(d.sentAt),
    })),
  };
}
