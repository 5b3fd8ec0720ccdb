import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { SubdomainView } from '@cbh/contracts';
import { DomainEntity } from './domain.entity';

/** A name under a domain that its checks came across. */
@Entity('subdomains')
@Unique('subdomains_domain_id_name_key', ['domainId', 'name'])
export class SubdomainEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('integer', { name: 'domain_id' }) domainId!: number;

  // Declared for the foreign key only (deleting a domain deletes its subdomains); never loaded.
  @ManyToOne(() => DomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'domain_id', foreignKeyConstraintName: 'subdomains_domain_id_fkey' })
  parent?: DomainEntity;
  @Column('text') name!: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
}

export function toSubdomainView(row: SubdomainEntity): SubdomainView {
  return { id: row.id, domainId: row.domainId, name: row.name, createdAt: row.createdAt.toISOString() };
}
