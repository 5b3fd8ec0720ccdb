import { Module } from '@nestjs/common';
import { BreakersModule } from '../breakers.module';
import { ReplicasModule } from '../../platform';
import { MetricsModule } from '../metrics/metrics.module';
import { LoadTestsController } from './load-tests.controller';
import { LoadTestsService } from './load-tests.service';
import { TestSessionsRepository } from './test-sessions.repository';

@Module({
  imports: [BreakersModule, MetricsModule, ReplicasModule],
  controllers: [LoadTestsController],
  providers: [LoadTestsService, TestSessionsRepository],
  exports: [LoadTestsService],
})
export class LoadTestsModule {}
