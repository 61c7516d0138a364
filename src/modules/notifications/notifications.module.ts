import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { EmailChannel } from './channels/email.channel';
import { MessengerChannel } from './channels/messenger.channel';
import { NotificationsV1Controller } from './http/notifications.v1.controller';
import { NotificationDeliveryService } from './notification-delivery.service';
import { NotificationsDemoSeed } from './notifications.seed';
import { NotificationsService } from './notifications.service';
import { NotificationsRepository } from './persistence/notifications.repository';

@Module({
  imports: [UsersModule],
  controllers: [NotificationsV1Controller],
  providers: [NotificationsRepository, NotificationsService, NotificationDeliveryService, EmailChannel, MessengerChannel, NotificationsDemoSeed],
  exports: [NotificationsService],
})
export class NotificationsModule {}
