import { Module } from '@nestjs/common';
import { BreakersModule } from '../breakers.module';
import { ReplicasModule } from '../../platform';
import { BreakerHistoryController } from './breaker-history.controller';
import { BreakerHistoryRepository } from './breaker-history.repository';
import { BreakerHistoryService } from './breaker-history.service';
import { MetricsController } from './metrics.controller';
import { MetricBucketsRepository } from './metric-buckets.repository';
import { MetricsService } from './metrics.service';
import { PrometheusController } from './prometheus.controller';

@Module({
  imports: [BreakersModule, ReplicasModule],
  controllers: [MetricsController, PrometheusController, BreakerHistoryController],
  providers: [MetricsService, MetricBucketsRepository, BreakerHistoryService, BreakerHistoryRepository],
  exports: [MetricsService],
})
export class MetricsModule {}
