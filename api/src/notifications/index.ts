/** The notifications context's public face: what other contexts and the composition root may use (see README.md). */
export { NOTIFICATION_ENTITIES } from './tables';
export type { MaintenanceWindowEntity } from './entities/maintenance-window.entity';
export type { NotificationChannelEntity } from './entities/notification-channel.entity';
export type { NotificationRuleEntity } from './entities/notification-rule.entity';
export { NotificationSettingsService } from './notification-settings.service';
export type { NotificationConfiguration } from './notification-settings.service';
export { NotificationsModule } from './notifications.module';
export { NOTIFICATION_HISTORY } from './history';
export { windowSettings } from './notification-views';
export { isWindowActive, nextActiveSpan, windowCoversSubject } from './maintenance';
export type { CoveredSubject } from './maintenance';
export { OutboxAudiences } from './outbox-audiences';
export type { OutboxAudience } from './outbox-audiences';
export type { OutboxEvent } from './rule-matching';
export type { SendOutcome } from './senders/channel-sender.types';
export type { NotificationDeliveryEntity } from './entities/notification-delivery.entity';
