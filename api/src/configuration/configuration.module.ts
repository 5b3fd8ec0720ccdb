import { Module } from '@nestjs/common';
import { BreakersModule, FleetModule, ServicesModule } from '../breakers';
import { DomainsModule } from '../domains';
import { NotificationsModule } from '../notifications';
import { ConfigurationController } from './configuration.controller';
import { ConfigurationRepository } from './configuration.repository';
import { ConfigurationService } from './configuration.service';

/**
 * Configuration as code: the hub's breakers, services, domains, notification settings and scrape targets exported as one document
 * and imported as a diff.
 */
@Module({
  imports: [BreakersModule, ServicesModule, DomainsModule, NotificationsModule, FleetModule],
  controllers: [ConfigurationController],
  providers: [ConfigurationService, ConfigurationRepository],
})
export class ConfigurationModule {}
