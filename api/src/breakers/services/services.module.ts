import { Module } from '@nestjs/common';
import { BreakersModule } from '../breakers.module';
import { MetricsModule } from '../metrics/metrics.module';
import { ServicesController } from './services.controller';
import { ServicesService } from './services.service';

@Module({
  imports: [BreakersModule, MetricsModule],
  controllers: [ServicesController],
  providers: [ServicesService],
  exports: [ServicesService],
})
export class ServicesModule {}
