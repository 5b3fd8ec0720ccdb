import { Module } from '@nestjs/common';
import { BreakersModule } from '../breakers/breakers.module';
import { AgentIngest } from './agent-ingest.service';
import { AgentReportsController } from './agent-reports.controller';

/** Breakers that run in other services: their agents' reports in, the hub's controls out, and the scraped ones. */
@Module({
  imports: [BreakersModule],
  controllers: [AgentReportsController],
  providers: [AgentIngest],
})
export class FleetModule {}
