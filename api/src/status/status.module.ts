import { Module } from '@nestjs/common';
import { MailModule, ReplicasModule } from '../platform';
import { BreakersModule, MetricsModule } from '../breakers';
import { DomainsModule } from '../domains';
import { NotificationsModule } from '../notifications';
import { ComponentJudge } from './component-judge.service';
import { IncidentsService } from './incidents.service';
import { MaintenanceAnnouncer } from './maintenance-announcer.service';
import { PublicStatusApiController, PublicStatusController } from './public/public-status.controller';
import { PublicStatusService } from './public/public-status.service';
import { StatusRenderings } from './public/status-renderings';
import { StatusSubscriberAudience } from './status-audience';
import { StatusInputs } from './status-inputs';
import { StatusComponentsController, StatusPagesController } from './status-pages.controller';
import { StatusPagesService } from './status-pages.service';
import { StatusRepository } from './status.repository';
import { SubscriptionsService } from './subscriptions.service';

/** Status pages: their components judged live, incidents, the public pages, feeds and badges, and subscriptions. */
@Module({
  imports: [BreakersModule, MetricsModule, DomainsModule, NotificationsModule, MailModule, ReplicasModule],
  controllers: [StatusPagesController, StatusComponentsController, PublicStatusController, PublicStatusApiController],
  providers: [
    StatusPagesService,
    StatusRepository,
    StatusInputs,
    ComponentJudge,
    IncidentsService,
    PublicStatusService,
    StatusRenderings,
    SubscriptionsService,
    StatusSubscriberAudience,
    MaintenanceAnnouncer,
  ],
  exports: [StatusPagesService],
})
export class StatusModule {}
