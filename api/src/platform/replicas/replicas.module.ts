import { Module } from '@nestjs/common';
import { ApiInstancesRepository } from './api-instances.repository';
import { ClusterLeasesRepository } from './cluster-leases.repository';
import { ClusterLeases } from './cluster-leases.service';
import { InstanceRegistry } from './instance-registry.service';

/**
 * This API process's row in api_instances and the list of live replicas (health, the bus, metrics, breakers and load
 * tests read it), and the roles one replica holds for the cluster.
 */
@Module({
  providers: [InstanceRegistry, ApiInstancesRepository, ClusterLeases, ClusterLeasesRepository],
  exports: [InstanceRegistry, ApiInstancesRepository, ClusterLeases],
})
export class ReplicasModule {}
