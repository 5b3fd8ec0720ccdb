import { IncidentEntity, IncidentUpdateEntity } from './entities/incident.entity';
import { StatusComponentChangeEntity, StatusComponentEntity } from './entities/status-component.entity';
import { StatusPageEntity } from './entities/status-page.entity';
import { StatusSubscriptionEntity } from './entities/subscription.entity';

/** The status context's tables (entities.ts assembles every context's for the DataSource). */
export const STATUS_ENTITIES = [
  StatusPageEntity,
  StatusComponentEntity,
  StatusComponentChangeEntity,
  IncidentEntity,
  IncidentUpdateEntity,
  StatusSubscriptionEntity,
];
