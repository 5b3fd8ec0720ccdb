import { Entity, PrimaryColumn } from 'typeorm';
import type { DependencyKind } from '@cbh/contracts';

/** What a breaker depends on: a domain or breaker by id, a service by name (`parent_key`). */
@Entity('breaker_dependencies')
export class BreakerDependencyEntity {
  @PrimaryColumn('integer', { name: 'breaker_id' }) breakerId!: number;
  @PrimaryColumn('text', { name: 'parent_kind' }) parentKind!: DependencyKind;
  @PrimaryColumn('text', { name: 'parent_key' }) parentKey!: string;
}
