import { AlertGroupEntryEntity } from './entities/alert-group-entry.entity';
import { AlertGroupEntity } from './entities/alert-group.entity';
import { BreakerDependencyEntity } from './entities/breaker-dependency.entity';
import { ContactMethodEntity } from './entities/contact-method.entity';
import { EscalationPolicyEntity } from './entities/escalation-policy.entity';
import { OnCallFeedEntity } from './entities/on-call-feed.entity';
import { ScheduleEntity } from './entities/schedule.entity';

/** The on-call context's tables (entities.ts assembles every context's for the DataSource). */
export const ON_CALL_ENTITIES = [
  ScheduleEntity,
  OnCallFeedEntity,
  EscalationPolicyEntity,
  AlertGroupEntity,
  AlertGroupEntryEntity,
  ContactMethodEntity,
  BreakerDependencyEntity,
];
