/** The on-call context's public face (see README.md): being built. */
export { ON_CALL_ENTITIES } from './tables';
export { OnCallModule } from './on-call.module';
export { onCallAt } from './on-call-at';
export { EscalationPoliciesService } from './escalation-policies.service';
export { SchedulesService } from './schedules.service';
export type { EscalationPolicyEntity } from './entities/escalation-policy.entity';
export type { ScheduleEntity } from './entities/schedule.entity';
