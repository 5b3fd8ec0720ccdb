import { Module } from '@nestjs/common';
import { BreakersModule } from '../breakers/breakers.module';
import { HealthModule } from '../health/health.module';
import { MetricsModule } from '../metrics/metrics.module';
import { LoadTestsController } from './load-tests.controller';
import { LoadTestsService } from './load-tests.service';

@Module({ imports: [BreakersModule, MetricsModule, HealthModule], controllers: [LoadTestsController], providers: [LoadTestsService] })
export class LoadTestsModule {}
