import { Module } from '@nestjs/common';
import { MailModule, ReplicasModule } from '../platform';
import { ChannelSecrets } from './channel-secrets';
import {
  MaintenanceWindowsController,
  NotificationChannelsController,
  NotificationDeliveriesController,
  NotificationRulesController,
} from './notifications.controller';
import { NotificationOutbox } from './notification-outbox.service';
import { NotificationSettingsService } from './notification-settings.service';
import { NotificationsRepository } from './notifications.repository';
import { OutboxAudiences } from './outbox-audiences';
import { OutboxEscalations } from './outbox-escalations';
import { OutboxFanOut } from './outbox-fan-out';
import { OutboxWriter } from './outbox-writer';
import { ChannelSender } from './senders/channel-sender';

/** Channels, rules, maintenance windows and the outbox that delivers notifications from every replica. */
@Module({
  imports: [MailModule, ReplicasModule],
  controllers: [
    NotificationChannelsController,
    NotificationRulesController,
    MaintenanceWindowsController,
    NotificationDeliveriesController,
  ],
  providers: [
    ChannelSecrets,
    ChannelSender,
    NotificationsRepository,
    NotificationSettingsService,
    NotificationOutbox,
    OutboxAudiences,
    OutboxEscalations,
    OutboxFanOut,
    OutboxWriter,
  ],
  exports: [NotificationSettingsService, OutboxAudiences, OutboxEscalations, OutboxWriter, ChannelSender],
})
export class NotificationsModule {}
