import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ServiceView } from '@cbh/contracts';

@Entity('services')
export class ServiceEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') name!: string;
  @Column('text') endpoint!: string;
  @Column('real', { name: 'failure_rate' }) failureRate!: number;
  @Column('integer', { name: 'average_response_time' }) averageResponseTime!: number;
  @Column('integer', { name: 'circuit_breaker_config_id', nullable: true }) circuitBreakerConfigId!: number | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}

export function toServiceView(service: ServiceEntity): ServiceView {
  return {
    id: service.id,
    name: service.name,
    endpoint: service.endpoint,
    failureRate: service.failureRate,
    averageResponseTime: service.averageResponseTime,
    circuitBreakerConfigId: service.circuitBreakerConfigId,
  };
}
