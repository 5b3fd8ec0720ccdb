import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications';
import { AcknowledgeLinks } from './acknowledge-links';
import { AcknowledgePageController } from './acknowledge-page.controller';
import { AlertGroupJournal } from './alert-group-journal';
import { AlertGroupRouter } from './alert-group-router';
import { AlertGroupsController } from './alert-groups.controller';
import { AlertGroupsRepository } from './alert-groups.repository';
import { AlertGroupsService } from './alert-groups.service';
import { ContactMethodsController } from './contact-methods.controller';
import { ContactMethodsService } from './contact-methods.service';
import { DependenciesController } from './dependencies.controller';
import { DependenciesRepository } from './dependencies.repository';
import { DependenciesService } from './dependencies.service';
import { EscalationPoliciesController } from './escalation-policies.controller';
import { EscalationPoliciesService } from './escalation-policies.service';
import { EscalationRunner } from './escalation-runner.service';
import { OnCallAudience } from './on-call-audience';
import { OnCallPeopleController } from './people.controller';
import { ShiftFeedAddressController, ShiftFeedController } from './shift-feeds.controller';
import { ShiftFeedsService } from './shift-feeds.service';
import { SchedulesController } from './schedules.controller';
import { SchedulesService } from './schedules.service';
import { StepRecipients } from './step-recipients';

/**
 * On call: alert groups opened by the rules naming an escalation policy (router), their steps fired once across
 * replicas (runner) to channels and to people on their contact methods (audience), acknowledged from the console or
 * a message's signed link; policies, schedules, each person's calendar of shifts, and what breakers depend on.
 */
@Module({
  imports: [NotificationsModule],
  controllers: [
    AlertGroupsController,
    AcknowledgePageController,
    EscalationPoliciesController,
    SchedulesController,
    ShiftFeedAddressController,
    ShiftFeedController,
    ContactMethodsController,
    DependenciesController,
    OnCallPeopleController,
  ],
  providers: [
    AcknowledgeLinks,
    AlertGroupJournal,
    AlertGroupRouter,
    AlertGroupsRepository,
    AlertGroupsService,
    ContactMethodsService,
    DependenciesRepository,
    DependenciesService,
    EscalationPoliciesService,
    EscalationRunner,
    OnCallAudience,
    SchedulesService,
    ShiftFeedsService,
    StepRecipients,
  ],
  exports: [EscalationPoliciesService, SchedulesService],
})
export class OnCallModule {}
