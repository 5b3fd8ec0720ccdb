import { Module } from '@nestjs/common';
import { BreakersModule } from '../breakers.module';
import { AgentIngest } from './agent-ingest.service';
import { AgentReportsController } from './agent-reports.controller';
import { AgentReportsRepository } from './agent-reports.repository';
import { AgentStreamGateway } from './agent-stream.gateway';
import { ReplicasModule } from '../../platform';
import { ScrapeTargetsController } from '../scrape/scrape-targets.controller';
import { ScrapeTargetsRepository } from '../scrape/scrape-targets.repository';
import { ScrapeTargetsService } from '../scrape/scrape-targets.service';
import { Scraper } from '../scrape/scraper.service';

/** Breakers that run in other services: their agents' reports in, the hub's controls out, and the scraped ones. */
@Module({
  imports: [BreakersModule, ReplicasModule],
  controllers: [AgentReportsController, ScrapeTargetsController],
  providers: [AgentIngest, AgentStreamGateway, AgentReportsRepository, ScrapeTargetsService, ScrapeTargetsRepository, Scraper],
  exports: [ScrapeTargetsService],
})
export class FleetModule {}
