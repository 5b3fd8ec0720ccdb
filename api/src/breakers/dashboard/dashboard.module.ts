import { Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module';
import { DashboardController } from './dashboard.controller';
import { DashboardHealthService } from './dashboard-health.service';
import { DashboardRepository } from './dashboard.repository';
import { DashboardService } from './dashboard.service';

@Module({
  imports: [MetricsModule],
  controllers: [DashboardController],
  providers: [DashboardService, DashboardHealthService, DashboardRepository],
})
export class DashboardModule {}
