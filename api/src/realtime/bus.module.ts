import { Global, Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { RealtimeBus } from './realtime-bus.service';

@Global()
@Module({ imports: [HealthModule], providers: [RealtimeBus], exports: [RealtimeBus] })
export class BusModule {}
