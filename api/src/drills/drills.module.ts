import { Module } from '@nestjs/common';
import { BreakersModule } from '../breakers';
import { RecentSignIn } from '../identity';
import { ReplicasModule } from '../platform';
import { DrillDefinitionsController } from './drill-definitions.controller';
import { DrillDefinitionsRepository } from './drill-definitions.repository';
import { DrillDefinitionsService } from './drill-definitions.service';
import { DrillPlan } from './drill-plan';
import { DrillRunner } from './drill-runner.service';
import { DrillViews } from './drill-views';
import { DrillsController } from './drills.controller';
import { DrillsRepository } from './drills.repository';
import { DrillsService } from './drills.service';

/**
 * Resilience drills: faults injected into chosen breakers' calls for a bounded time (the plan every replica answers
 * agents and its own engine from), ended and judged against their expectations once across replicas.
 */
@Module({
  imports: [BreakersModule, ReplicasModule],
  controllers: [DrillsController, DrillDefinitionsController],
  providers: [
    DrillPlan,
    DrillRunner,
    DrillViews,
    DrillsRepository,
    DrillsService,
    RecentSignIn,
    DrillDefinitionsRepository,
    DrillDefinitionsService,
  ],
  exports: [DrillsService, DrillDefinitionsService],
})
export class DrillsModule {}
