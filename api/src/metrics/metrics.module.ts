import { Module } from '@nestjs/common';
import { BreakersModule } from '../breakers/breakers.module';
import { HealthModule } from '../health/health.module';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

@Module({ imports: [BreakersModule, HealthModule], controllers: [MetricsController], providers: [MetricsService], exports: [MetricsService] })
export class MetricsModule {}
