import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { InstanceRegistry } from './instance-registry.service';

@Module({
  controllers: [HealthController],
  providers: [InstanceRegistry],
  exports: [InstanceRegistry],
})
export class HealthModule {}
