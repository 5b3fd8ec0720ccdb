import { Module } from '@nestjs/common';
import { BreakersModule } from '../breakers.module';
import { ReplicasModule } from '../../platform';
import { MetricsController } from './metrics.controller';
import { MetricBucketsRepository } from './metric-buckets.repository';
import { MetricsService } from './metrics.service';
import { PrometheusController } from './prometheus.controller';

@Module({
  imports: [BreakersModule, ReplicasModule],
  controllers: [MetricsController, PrometheusController],
  providers: [MetricsService, MetricBucketsRepository],
  exports: [MetricsService],
})
export class MetricsModule {}
