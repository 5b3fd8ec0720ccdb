import { Module } from '@nestjs/common';
import { ReplicasModule } from '../platform';
import { ReleasesModule } from '../releases';
import { CanarySloJudgement } from './canary-judgement';
import { CanaryJudgementRepository } from './canary-judgement.repository';
import { SloAlerts } from './slo-alerts';
import { SloCounter } from './slo-counter.service';
import { SloCountsRepository } from './slo-counts.repository';
import { SlosController } from './slos.controller';
import { SlosRepository } from './slos.repository';
import { SlosService } from './slos.service';

/**
 * Service level objectives over what users experienced: their counts per minute and hour (counter, on the holder of
 * `slos.counts`), their SLI, error budget and burn rates (service), the burn-rate alerts they raise as events, and
 * the judgement of canaries that name them (registered with releases' CanaryJudges).
 */
@Module({
  imports: [ReplicasModule, ReleasesModule],
  controllers: [SlosController],
  providers: [CanarySloJudgement, CanaryJudgementRepository, SloAlerts, SloCounter, SloCountsRepository, SlosRepository, SlosService],
  exports: [SlosService],
})
export class SlosModule {}
