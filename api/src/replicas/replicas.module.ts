import { Module } from '@nestjs/common';
import { ApiInstancesRepository } from './api-instances.repository';
import { InstanceRegistry } from './instance-registry.service';

/** This API process's row in api_instances and the list of live replicas: health, the bus, metrics, breakers and load tests read it. */
@Module({ providers: [InstanceRegistry, ApiInstancesRepository], exports: [InstanceRegistry, ApiInstancesRepository] })
export class ReplicasModule {}
