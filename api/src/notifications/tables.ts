import { NotificationChannelEntity } from './entities/notification-channel.entity';
import { NotificationRuleChannelEntity, NotificationRuleEntity } from './entities/notification-rule.entity';
import { MaintenanceWindowEntity } from './entities/maintenance-window.entity';
import { NotificationDeliveryEntity } from './entities/notification-delivery.entity';

/** The tables this context owns, as TypeORM entities: the composition root hands them to the DataSource. */
export const NOTIFICATION_ENTITIES = [
  NotificationChannelEntity,
  NotificationRuleChannelEntity,
  NotificationRuleEntity,
  MaintenanceWindowEntity,
  NotificationDeliveryEntity,
];
