import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications';
import { EscalationPoliciesController } from './escalation-policies.controller';
import { EscalationPoliciesService } from './escalation-policies.service';
import { ShiftFeedAddressController, ShiftFeedController } from './shift-feeds.controller';
import { ShiftFeedsService } from './shift-feeds.service';
import { SchedulesController } from './schedules.controller';
import { SchedulesService } from './schedules.service';

/** On call (being built): escalation policies, schedules of who is on call, and each person's calendar of their shifts. */
@Module({
  imports: [NotificationsModule],
  controllers: [EscalationPoliciesController, SchedulesController, ShiftFeedAddressController, ShiftFeedController],
  providers: [EscalationPoliciesService, SchedulesService, ShiftFeedsService],
  exports: [EscalationPoliciesService, SchedulesService],
})
export class OnCallModule {}
