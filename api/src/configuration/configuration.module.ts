import { Module } from '@nestjs/common';
import { BreakersModule, FleetModule, LoadTestsModule, ServicesModule } from '../breakers';
import { DomainsModule } from '../domains';
import { NotificationsModule } from '../notifications';
import { StatusModule } from '../status';
import { OnCallModule } from '../on-call';
import { SlosModule } from '../slos';
import { DrillsModule } from '../drills';
import { ConfigurationController } from './configuration.controller';
import { ConfigurationRepository } from './configuration.repository';
import { ConfigurationService } from './configuration.service';
import { SampleDataController } from './sample-data/sample-data.controller';
import { SampleDataService } from './sample-data/sample-data.service';

/**
 * Configuration as code: the hub's breakers, services, domains, notification settings, scrape targets, on-call lists,
 * status pages, SLOs and saved drills exported as one document
 * and imported as a diff; and the sample data, which is such a document loaded (and removed) in one action.
 */
@Module({
  imports: [
    BreakersModule,
    ServicesModule,
    DomainsModule,
    NotificationsModule,
    FleetModule,
    LoadTestsModule,
    StatusModule,
    OnCallModule,
    SlosModule,
    DrillsModule,
  ],
  controllers: [ConfigurationController, SampleDataController],
  providers: [ConfigurationService, ConfigurationRepository, SampleDataService],
})
export class ConfigurationModule {}
