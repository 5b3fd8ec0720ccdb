import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { DomainStatus, DomainView } from '@cbh/contracts';
import { UserEntity } from '../../identity';

/** A monitored domain, in its normal form (lower case, punycode), with the scheduling of its rounds of checks. */
@Entity('domains')
@Check('domains_status_check', `"status" IN ('pending', 'active', 'down', 'failed')`)
@Index('domains_domain_key', ['domain'], { unique: true })
@Index('domains_next_check_at', ['nextCheckAt'])
export class DomainEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('text') domain!: string;
  @Column('text', { default: 'pending' }) status!: DomainStatus;
  @Column('text', { nullable: true }) registrar!: string | null;

  /** When the registration ends. */
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt!: Date | null;

  /** Random; the owner publishes it in a TXT record to prove the domain is theirs. */
  @Column('text', { name: 'verification_token' }) verificationToken!: string;

  /** When the next round of checks is due; now() makes the scheduler pick the domain at once. */
  @Column('timestamptz', { name: 'next_check_at', default: () => 'now()' }) nextCheckAt!: Date;

  /** The replica running the current round and until when it holds it; a lapsed lease may be claimed again. */
  @Column('timestamptz', { name: 'check_lease_until', nullable: true }) checkLeaseUntil!: Date | null;
  @Column('uuid', { name: 'check_owner', nullable: true }) checkOwner!: string | null;

  /** A digest of what the screens show of it beyond the latest check; a round that changes it says so (DomainsRepository.endRound). */
  @Column('text', { name: 'shown_digest', nullable: true }) shownDigest!: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt!: Date;
  @Column('uuid', { name: 'created_by', nullable: true }) createdBy!: string | null;

  // Declared for the foreign key only (a removed user leaves the domain without its creator); never loaded.
  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'domains_created_by_fkey' })
  creator?: UserEntity;
}

export function toDomainView(domain: DomainEntity): DomainView {
  return {
    id: domain.id,
    domain: domain.domain,
    status: domain.status,
    registrar: domain.registrar,
    expiresAt: domain.expiresAt?.toISOString() ?? null,
    createdAt: domain.createdAt.toISOString(),
  };
}
