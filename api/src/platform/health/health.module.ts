import { Module } from '@nestjs/common';
import { ReplicasModule } from '../replicas/replicas.module';
import { HealthController } from './health.controller';

@Module({ imports: [ReplicasModule], controllers: [HealthController] })
export class HealthModule {}
