import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { ComponentState } from '@cbh/contracts';

/** One component of a page: the breakers and domains that drive it, and its state as last judged (one judge for all replicas). */
@Entity('status_components')
export class StatusComponentEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('integer', { name: 'page_id' }) pageId!: number;
  @Column('integer') position!: number;
  @Column('text') name!: string;
  @Column('text', { nullable: true }) description!: string | null;
  @Column('text', { name: 'group_name', nullable: true }) group!: string | null;
  @Column('integer', { name: 'breaker_ids', array: true, default: () => "'{}'" }) breakerIds!: number[];
  @Column('integer', { name: 'domain_ids', array: true, default: () => "'{}'" }) domainIds!: number[];
  @Column('text', { default: 'operational' }) state!: ComponentState;
  @Column('timestamptz', { name: 'state_since', default: () => 'now()' }) stateSince!: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}

/** A change of a component's state: the 90 daily bars are computed from these. */
@Entity('status_component_changes')
export class StatusComponentChangeEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column('integer', { name: 'component_id' }) componentId!: number;
  @Column('text') state!: ComponentState;
  @Column('timestamptz', { default: () => 'now()' }) at!: Date;
}
