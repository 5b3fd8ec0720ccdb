import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { BreakerRegistry } from './breaker-registry.service';
import { BreakersController } from './breakers.controller';
import { BreakersService } from './breakers.service';

@Module({
  imports: [HealthModule],
  controllers: [BreakersController],
  providers: [BreakerRegistry, BreakersService],
  exports: [BreakerRegistry, BreakersService],
})
export class BreakersModule {}
