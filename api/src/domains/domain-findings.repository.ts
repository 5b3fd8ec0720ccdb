import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { hydrate, SqlRunner } from '../platform';
import { DomainVerificationEntity } from './entities/domain-verification.entity';
import { SslCertificateEntity } from './entities/ssl-certificate.entity';
import { SubdomainEntity } from './entities/subdomain.entity';
import { MAX_SUBDOMAINS } from './checks/subdomains';
import { ifDomainExists, type CertificateFindings, type DnsRecordFinding, type VerificationFindings } from './domains.repository';

/** What the checks find of a domain: its verification, certificate, DNS records and subdomains, each written in one statement. */
@Injectable()
export class DomainFindingsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {}

  /**
   * Asks for the domains' ownership to be checked in their next round, and for that round to start now; the
   * verifications as they now stand, none for an id of no domain.
   */
  async startVerifications(domainIds: readonly number[], manager?: EntityManager): Promise<DomainVerificationEntity[]> {
    const rows = await this.sql.rows(
      `WITH due AS (UPDATE domains SET next_check_at = now() WHERE id = ANY($1::int[]) RETURNING id)
       UPDATE domain_verifications SET status = 'verifying', reason = NULL
       WHERE domain_id IN (SELECT id FROM due) RETURNING *`,
      [domainIds],
      manager,
    );
    return rows.map((row) => hydrate(this.dataSource, DomainVerificationEntity, row));
  }

  /** Records a look-up's outcome; verifiedAt is when it first succeeded, and goes when it no longer does. */
  async saveVerification(domainId: number, findings: VerificationFindings): Promise<DomainVerificationEntity | null> {
    const rows = await this.sql.rows(
      `UPDATE domain_verifications SET status = $2, reason = $3, checked_at = now(),
         verified_at = CASE WHEN $2 = 'verified' THEN coalesce(verified_at, now()) END
       WHERE domain_id = $1 RETURNING *`,
      [domainId, findings.status, findings.reason],
    );
    return rows[0] ? hydrate(this.dataSource, DomainVerificationEntity, rows[0]) : null;
  }

  /**
   * Records the certificate a TLS check found, replacing the domain's previous one. autoRenew follows the
   * findings unless the owner set it by hand.
   */
  async saveCertificate(domainId: number, findings: CertificateFindings): Promise<SslCertificateEntity | null> {
    const rows = await ifDomainExists(() =>
      this.sql.rows(
        `INSERT INTO ssl_certificates (domain_id, certificate_type, status, reason, fingerprint, issued_at, expires_at, auto_renew, checked_at)
         SELECT $1::int, $2::text, $3::text, $4::text, $5::text, $6::timestamptz, $7::timestamptz, $8::boolean, now()
         WHERE EXISTS (SELECT 1 FROM domains WHERE id = $1)
         ON CONFLICT (domain_id) DO UPDATE SET
           certificate_type = EXCLUDED.certificate_type, status = EXCLUDED.status, reason = EXCLUDED.reason,
           fingerprint = EXCLUDED.fingerprint, issued_at = EXCLUDED.issued_at, expires_at = EXCLUDED.expires_at,
           auto_renew = CASE WHEN ssl_certificates.auto_renew_overridden THEN ssl_certificates.auto_renew ELSE EXCLUDED.auto_renew END,
           checked_at = EXCLUDED.checked_at
         RETURNING *`,
        [
          domainId,
          findings.certificateType,
          findings.status,
          findings.reason,
          findings.fingerprint,
          findings.issuedAt?.toISOString() ?? null,
          findings.expiresAt?.toISOString() ?? null,
          findings.autoRenew,
        ],
      ),
    );
    return rows[0] ? hydrate(this.dataSource, SslCertificateEntity, rows[0]) : null;
  }

  /**
   * Records a DNS round: the records found are active, seen now, with their TTL; a record of the domain the
   * round no longer found stays listed, inactive. Pass only a round that completed: an empty list marks
   * every record inactive. One statement, that reads nothing back: a round has no use for the records.
   */
  async replaceDnsRecords(domainId: number, records: DnsRecordFinding[]): Promise<void> {
    const found = records.map((record) => ({ record_type: record.recordType, name: record.name, value: record.value, ttl: record.ttl }));
    await ifDomainExists(() =>
      this.sql.rows(
        `WITH found AS (
           SELECT DISTINCT ON (r.record_type, r.name, md5(r.value)) r.record_type, r.name, r.value, r.ttl
           FROM jsonb_to_recordset($2::jsonb) AS r(record_type text, name text, value text, ttl int)
         ), seen AS (
           INSERT INTO dns_records (domain_id, record_type, name, value, ttl, is_active, last_seen_at)
           SELECT $1, record_type, name, value, ttl, true, now() FROM found
           WHERE EXISTS (SELECT 1 FROM domains WHERE id = $1)
           ON CONFLICT (domain_id, record_type, name, md5(value)) DO UPDATE SET
             ttl = EXCLUDED.ttl, is_active = true, last_seen_at = EXCLUDED.last_seen_at
           RETURNING id
         )
         UPDATE dns_records SET is_active = false
         WHERE domain_id = $1 AND is_active AND id NOT IN (SELECT id FROM seen)`,
        [domainId, JSON.stringify(found)],
      ),
    );
  }

  /** Adds the subdomains not known yet, while the domain has fewer than MAX_SUBDOMAINS, and returns those. */
  async addSubdomains(domainId: number, names: string[]): Promise<SubdomainEntity[]> {
    if (names.length === 0) return [];
    const rows = await ifDomainExists(() =>
      this.sql.rows(
        `INSERT INTO subdomains (domain_id, name)
         SELECT $1, name FROM unnest($2::text[]) AS name
         WHERE EXISTS (SELECT 1 FROM domains WHERE id = $1)
           AND (SELECT count(*) FROM subdomains WHERE domain_id = $1) < $3
         ON CONFLICT (domain_id, name) DO NOTHING RETURNING *`,
        [domainId, [...new Set(names)], MAX_SUBDOMAINS],
      ),
    );
    return rows.map((row) => hydrate(this.dataSource, SubdomainEntity, row));
  }
}
