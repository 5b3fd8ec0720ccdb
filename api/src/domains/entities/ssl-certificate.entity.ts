import { Check, Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { CertificateStatus, SslCertificateView } from '@cbh/contracts';
import { DomainEntity } from './domain.entity';

/** The TLS certificate a domain served at its last check (one per domain, replaced by each check). */
@Entity('ssl_certificates')
@Check('ssl_certificates_status_check', `"status" IN ('active', 'expired', 'invalid', 'unreachable')`)
export class SslCertificateEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column('integer', { name: 'domain_id', unique: true }) domainId!: number;

  // Declared for the foreign key only (deleting a domain deletes its certificate); never loaded.
  @ManyToOne(() => DomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'domain_id', foreignKeyConstraintName: 'ssl_certificates_domain_id_fkey' })
  parent?: DomainEntity;

  /** The issuer. */
  @Column('text', { name: 'certificate_type', nullable: true }) certificateType!: string | null;
  @Column('text') status!: CertificateStatus;
  @Column('text', { nullable: true }) reason!: string | null;

  /** Tells one certificate from its renewal, so that an expiry alert is raised once per certificate. */
  @Column('text', { nullable: true }) fingerprint!: string | null;
  @Column('timestamptz', { name: 'issued_at', nullable: true }) issuedAt!: Date | null;
  @Column('timestamptz', { name: 'expires_at', nullable: true }) expiresAt!: Date | null;
  @Column('boolean', { name: 'auto_renew', default: false }) autoRenew!: boolean;

  /** Set when the owner chose autoRenew by hand; the checks then stop inferring it from the issuer. */
  @Column('boolean', { name: 'auto_renew_overridden', default: false }) autoRenewOverridden!: boolean;
  @Column('timestamptz', { name: 'checked_at', default: () => 'now()' }) checkedAt!: Date;
}

export function toCertificateView(row: SslCertificateEntity): SslCertificateView {
  return {
    id: row.id,
    domainId: row.domainId,
    certificateType: row.certificateType,
    status: row.status,
    reason: row.reason,
    issuedAt: row.issuedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    autoRenew: row.autoRenew,
    autoRenewOverridden: row.autoRenewOverridden,
    checkedAt: row.checkedAt.toISOString(),
  };
}
