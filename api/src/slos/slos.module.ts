import { Module } from '@nestjs/common';
import { ReplicasModule } from '../platform';
import { SloAlerts } from './slo-alerts';
import { SloCounter } from './slo-counter.service';
import { SloCountsRepository } from './slo-counts.repository';
import { SlosController } from './slos.controller';
import { SlosRepository } from './slos.repository';
import { SlosService } from './slos.service';

/**
 * Service level objectives over what users experienced: their counts per minute and hour (counter, on the holder of
 * `slos.counts`), their SLI, error budget and burn rates (service), and the burn-rate alerts they raise as events.
 */
@Module({
  imports: [ReplicasModule],
  controllers: [SlosController],
  providers: [SloAlerts, SloCounter, SloCountsRepository, SlosRepository, SlosService],
  exports: [SlosService],
})
export class SlosModule {}
