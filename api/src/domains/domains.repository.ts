import { Injectable } from '@nestjs/common';
import { hydrate, type RawRow } from '../platform';
import { DataSource, type EntityManager } from 'typeorm';
import type {
  AlertSeverity,
  CertificateStatus,
  DnsRecordType,
  DomainAlertType,
  DomainStatus,
  UptimeStatus,
  VerificationStatus,
} from '@cbh/contracts';
import { DnsRecordEntity } from './entities/dns-record.entity';
import { DomainAlertEntity } from './entities/domain-alert.entity';
import { DomainMonitoringEntity } from './entities/domain-monitoring.entity';
import { DomainVerificationEntity } from './entities/domain-verification.entity';
import { DomainEntity } from './entities/domain.entity';
import { SslCertificateEntity } from './entities/ssl-certificate.entity';
import { SubdomainEntity } from './entities/subdomain.entity';
import { MAX_SUBDOMAINS } from './checks/subdomains';

/** An uptime check slower than this counts towards the slow-response alert. */
export const SLOW_RESPONSE_MS = 2000;
/** The uptime percentage covers this many days of buckets. */
export const UPTIME_WINDOW_DAYS = 30;
/** Raw results are kept this long; the buckets as long as the check-result retention setting says (api/src/retention). */
export const RAW_RESULTS_HOURS = 24;
/** Inactive DNS records are kept this long after they were last seen. */
export const INACTIVE_RECORDS_DAYS = 7;

/** What a verification look-up found. */
export interface VerificationFindings {
  status: VerificationStatus;
  /** why it failed, e.g. 'no TXT record found', 'value does not match', 'DNS server unreachable' */
  reason: string | null;
}

/** What a TLS check found; autoRenew is the one inferred from the issuer (kept out when the owner chose). */
export interface CertificateFindings {
  certificateType: string | null;
  status: CertificateStatus;
  reason: string | null;
  fingerprint: string | null;
  issuedAt: Date | null;
  expiresAt: Date | null;
  autoRenew: boolean;
}

/** One record a DNS round found. */
export interface DnsRecordFinding {
  recordType: DnsRecordType;
  name: string;
  value: string;
  /** seconds */
  ttl: number;
}

/** One uptime check. */
export interface UptimeCheck {
  status: UptimeStatus;
  responseTimeMs: number | null;
  error?: string | null;
  /** defaults to the database's now() */
  checkedAt?: Date;
}

export interface NewDomainAlert {
  alertType: DomainAlertType;
  severity: AlertSeverity;
  /** names the domain and the figure */
  message: string;
  /** names the condition; a second alert with the same key for the domain is never opened */
  dedupeKey: string;
}

/** A domain as it is added: pending, with the token its owner publishes. */
export type NewDomain = Pick<DomainEntity, 'domain' | 'verificationToken'>;

/** How many domains one account may have added, and the site may monitor. */
export interface DomainQuotas {
  perUser: number;
  total: number;
}

const FOREIGN_KEY_VIOLATION = '23503';

/** A row as PostgreSQL returns it, keyed by column name. */

/**
 * The domain statements that must stay single statements: several replicas run checks on one database, so
 * claiming a round, adding to a bucket, raising an alert once and resolving it are each decided by the
 * database in one statement, where a read followed by a write would let two replicas both act. A domain
 * deleted while its check ran makes a write here do nothing (null or empty) rather than fail.
 */
@Injectable()
export class DomainsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Inserts pending domains in the caller's transaction, or answers 'per-user' or 'total' when they would pass a
   * quota. Adds are taken one at a time (an advisory lock held until the transaction ends), so requests reaching
   * several replicas together cannot pass a quota between them: each counts what the ones before it committed.
   * A duplicate name fails on the unique index, as any insert would.
   */
  async insertWithinQuotas(
    manager: EntityManager,
    domains: NewDomain[],
    createdBy: string | null,
    quotas: DomainQuotas,
  ): Promise<DomainEntity[] | 'per-user' | 'total'> {
    await this.rows("SELECT pg_advisory_xact_lock(hashtext('domains.add'))", [], manager);
    const [counts] = (await this.rows(
      'SELECT count(*)::int AS total, (count(*) FILTER (WHERE created_by = $1))::int AS mine FROM domains',
      [createdBy],
      manager,
    )) as { total: number; mine: number }[];
    if (counts!.mine + domains.length > quotas.perUser) return 'per-user';
    if (counts!.total + domains.length > quotas.total) return 'total';
    const rows = await this.rows(
      `INSERT INTO domains (domain, status, verification_token, created_by)
       SELECT domain, 'pending', token, $3 FROM unnest($1::text[], $2::text[]) AS added (domain, token)
       RETURNING *`,
      [domains.map((domain) => domain.domain), domains.map((domain) => domain.verificationToken), createdBy],
      manager,
    );
    return rows.map((row) => hydrate(this.dataSource, DomainEntity, row));
  }

  /**
   * Leases up to limit domains whose round is due and not leased by a live replica, for leaseSeconds, to owner;
   * each due domain goes to exactly one claiming replica. A lease that lapses (its replica died or hung) makes
   * the domain claimable again.
   */
  async claimDue(owner: string, limit: number, leaseSeconds: number): Promise<DomainEntity[]> {
    const rows = await this.rows(
      `UPDATE domains SET check_owner = $1, check_lease_until = now() + make_interval(secs => $3)
       WHERE id IN (
         SELECT id FROM domains
         WHERE next_check_at <= now() AND (check_lease_until IS NULL OR check_lease_until < now())
         ORDER BY next_check_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [owner, limit, leaseSeconds],
    );
    return rows.map((row) => hydrate(this.dataSource, DomainEntity, row));
  }

  /**
   * Ends owner's round of the domain: the next is due one interval after this one was due (a steady cadence,
   * whatever the round took; never in the past, so a replica that fell behind does not run a backlog), and the
   * lease is released.
   * False when owner no longer holds it (the lease lapsed and another replica took the domain, or it was deleted).
   */
  async completeRound(domainId: number, owner: string, intervalSeconds: number): Promise<boolean> {
    const rows = await this.rows(
      `UPDATE domains SET next_check_at = greatest(next_check_at + make_interval(secs => $3), now()), check_owner = NULL, check_lease_until = NULL
       WHERE id = $1 AND check_owner = $2 RETURNING id`,
      [domainId, owner, intervalSeconds],
    );
    return rows.length === 1;
  }

  /**
   * The earliest added domain whose ownership has been proven (verified_at stays set while a re-check is under
   * way, so the choice does not flicker when its owner presses Verify again); null before any is.
   */
  async primaryDomainId(): Promise<number | null> {
    const rows = await this.rows(
      `SELECT d.id FROM domains d JOIN domain_verifications v ON v.domain_id = d.id
       WHERE v.verified_at IS NOT NULL ORDER BY d.created_at, d.id LIMIT 1`,
      [],
    );
    return rows[0] ? Number(rows[0].id) : null;
  }

  /**
   * Whether what the screens show of the domain beyond its latest check — status, registration, certificate,
   * DNS records (not their TTLs, which resolvers count down), subdomains — differs from when this was last
   * asked. One statement: the digest is computed and swapped in place, so two rounds cannot both claim a change.
   */
  async shownChanged(domainId: number): Promise<boolean> {
    const rows = await this.rows(
      `WITH digest AS (
         SELECT d.id, md5(concat_ws('|', d.status, d.registrar, d.expires_at,
           (SELECT concat_ws(',', c.status, c.fingerprint, c.reason, c.issued_at, c.expires_at, c.auto_renew)
              FROM ssl_certificates c WHERE c.domain_id = d.id),
           (SELECT string_agg(concat_ws(' ', r.record_type, r.name, r.value, r.is_active), ';' ORDER BY r.id)
              FROM dns_records r WHERE r.domain_id = d.id),
           (SELECT count(*) FROM subdomains s WHERE s.domain_id = d.id))) AS value
         FROM domains d WHERE d.id = $1
       )
       UPDATE domains SET shown_digest = digest.value FROM digest
       WHERE domains.id = digest.id AND domains.shown_digest IS DISTINCT FROM digest.value RETURNING domains.id`,
      [domainId],
    );
    return rows.length === 1;
  }

  /** Sets the domain's status; false when there is no such domain. */
  async setDomainStatus(domainId: number, status: DomainStatus): Promise<boolean> {
    const result = await this.dataSource.getRepository(DomainEntity).update({ id: domainId }, { status });
    return result.affected === 1;
  }

  /** The registrar and registration expiry, null when the registry could not tell. */
  async saveRegistration(domainId: number, registration: { registrar: string | null; expiresAt: Date | null }): Promise<void> {
    await this.dataSource.getRepository(DomainEntity).update({ id: domainId }, registration);
  }

  /**
   * Asks for the domains' ownership to be checked in their next round, and for that round to start now; the
   * verifications as they now stand, none for an id of no domain.
   */
  async startVerifications(domainIds: readonly number[], manager?: EntityManager): Promise<DomainVerificationEntity[]> {
    const rows = await this.rows(
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
    const rows = await this.rows(
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
    const rows = await this.ifDomainExists(() =>
      this.rows(
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
   * every record inactive. Returns the domain's records afterwards.
   */
  async replaceDnsRecords(domainId: number, records: DnsRecordFinding[]): Promise<DnsRecordEntity[]> {
    const found = records.map((record) => ({ record_type: record.recordType, name: record.name, value: record.value, ttl: record.ttl }));
    await this.ifDomainExists(() =>
      this.rows(
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
    return this.dataSource
      .getRepository(DnsRecordEntity)
      .find({ where: { domainId }, order: { recordType: 'ASC', name: 'ASC', value: 'ASC' } });
  }

  /** Adds the subdomains not known yet, while the domain has fewer than MAX_SUBDOMAINS, and returns those. */
  async addSubdomains(domainId: number, names: string[]): Promise<SubdomainEntity[]> {
    if (names.length === 0) return [];
    const rows = await this.ifDomainExists(() =>
      this.rows(
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

  /**
   * Records one uptime check in one statement: the raw result, its minute's bucket (added to, not replaced),
   * and the domain's monitoring row — last status, response time, uptime over the last 30 days of buckets,
   * the runs of failed and slow checks and when each run began. Returns that row, or null when the domain is gone.
   */
  async recordCheck(domainId: number, check: UptimeCheck): Promise<DomainMonitoringEntity | null> {
    const rows = await this.ifDomainExists(() =>
      this.rows(
        // The statement's parts see the tables as they were before it, so the uptime adds this minute's
        // bucket as the upsert left it to the other minutes' buckets.
        `WITH check_row AS (
           SELECT $1::int AS domain_id, coalesce($2::timestamptz, now()) AS checked_at, $3::text AS status,
                  $4::int AS response_time_ms, $5::text AS error,
                  ($3 = 'up' AND coalesce($4::int, 0) > $6::int) AS slow
           WHERE EXISTS (SELECT 1 FROM domains WHERE id = $1)
         ), raw AS (
           INSERT INTO domain_check_results (domain_id, checked_at, status, response_time_ms, error)
           SELECT domain_id, checked_at, status, response_time_ms, error FROM check_row
         ), bucket AS (
           INSERT INTO domain_check_buckets AS b (domain_id, minute, checks, failures, total_response_ms)
           SELECT domain_id, date_trunc('minute', checked_at), 1, (status = 'down')::int,
                  CASE WHEN status = 'up' THEN coalesce(response_time_ms, 0) ELSE 0 END
           FROM check_row
           ON CONFLICT (domain_id, minute) DO UPDATE SET
             checks = b.checks + 1, failures = b.failures + EXCLUDED.failures,
             total_response_ms = b.total_response_ms + EXCLUDED.total_response_ms
           RETURNING minute, checks, failures
         ), uptime AS (
           SELECT round(100.0 * (sum(checks) - sum(failures)) / nullif(sum(checks), 0), 2)::float8 AS percentage
           FROM (
             SELECT checks, failures FROM domain_check_buckets
             WHERE domain_id = $1 AND minute > now() - make_interval(days => $7) AND minute NOT IN (SELECT minute FROM bucket)
             UNION ALL SELECT checks, failures FROM bucket
           ) counted
         )
         INSERT INTO domain_monitoring AS m (domain_id, monitoring_type, last_status, response_time_ms, uptime_percentage,
           last_check, consecutive_failures, consecutive_slow, failing_since, slow_since)
         SELECT c.domain_id, 'uptime', c.status, c.response_time_ms, u.percentage, c.checked_at,
                (c.status = 'down')::int, c.slow::int,
                CASE WHEN c.status = 'down' THEN c.checked_at END, CASE WHEN c.slow THEN c.checked_at END
         FROM check_row c, uptime u
         ON CONFLICT (domain_id, monitoring_type) DO UPDATE SET
           last_status = EXCLUDED.last_status, response_time_ms = EXCLUDED.response_time_ms,
           uptime_percentage = EXCLUDED.uptime_percentage, last_check = EXCLUDED.last_check,
           consecutive_failures = CASE WHEN EXCLUDED.last_status = 'down' THEN m.consecutive_failures + 1 ELSE 0 END,
           consecutive_slow = CASE WHEN EXCLUDED.consecutive_slow = 1 THEN m.consecutive_slow + 1 ELSE 0 END,
           failing_since = CASE WHEN EXCLUDED.last_status = 'down' THEN coalesce(m.failing_since, EXCLUDED.failing_since) END,
           slow_since = CASE WHEN EXCLUDED.consecutive_slow = 1 THEN coalesce(m.slow_since, EXCLUDED.slow_since) END
         RETURNING *`,
        [
          domainId,
          check.checkedAt?.toISOString() ?? null,
          check.status,
          check.responseTimeMs,
          check.error ?? null,
          SLOW_RESPONSE_MS,
          UPTIME_WINDOW_DAYS,
        ],
      ),
    );
    return rows[0] ? hydrate(this.dataSource, DomainMonitoringEntity, rows[0]) : null;
  }

  /**
   * Opens the alert unless the domain already has one with its dedupe key (open or resolved): the alert when
   * this call opened it, null otherwise — so that exactly one replica announces it.
   */
  async openAlert(domainId: number, alert: NewDomainAlert): Promise<DomainAlertEntity | null> {
    const rows = await this.ifDomainExists(() =>
      this.rows(
        `INSERT INTO domain_alerts (domain_id, alert_type, severity, message, dedupe_key)
         SELECT $1::int, $2::text, $3::text, $4::text, $5::text WHERE EXISTS (SELECT 1 FROM domains WHERE id = $1)
         ON CONFLICT (domain_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
         RETURNING *`,
        [domainId, alert.alertType, alert.severity, alert.message, alert.dedupeKey],
      ),
    );
    return rows[0] ? hydrate(this.dataSource, DomainAlertEntity, rows[0]) : null;
  }

  /** Resolves the domain's open alerts of that type and returns them (none when none was open). */
  async resolveAlerts(domainId: number, alertType: DomainAlertType): Promise<DomainAlertEntity[]> {
    const rows = await this.rows(
      `UPDATE domain_alerts SET status = 'resolved', resolved_at = now()
       WHERE domain_id = $1 AND alert_type = $2 AND status = 'open' RETURNING *`,
      [domainId, alertType],
    );
    return rows.map((row) => hydrate(this.dataSource, DomainAlertEntity, row));
  }

  /**
   * Resolves the domain's open alerts of that type except those with one of keepKeys (the condition a round
   * still sees): a nearer certificate threshold supersedes the farther one, an outage that ended is over.
   */
  async resolveAlertsExcept(domainId: number, alertType: DomainAlertType, keepKeys: readonly string[]): Promise<DomainAlertEntity[]> {
    const rows = await this.rows(
      `UPDATE domain_alerts SET status = 'resolved', resolved_at = now()
       WHERE domain_id = $1 AND alert_type = $2 AND status = 'open' AND NOT (coalesce(dedupe_key, '') = ANY($3::text[]))
       RETURNING *`,
      [domainId, alertType, [...keepKeys]],
    );
    return rows.map((row) => hydrate(this.dataSource, DomainAlertEntity, row));
  }

  /** Resolves one alert if it is open; null when it is not (already resolved, or no such alert). */
  async resolveAlert(id: number, manager?: EntityManager): Promise<DomainAlertEntity | null> {
    const rows = await this.rows(
      `UPDATE domain_alerts SET status = 'resolved', resolved_at = now() WHERE id = $1 AND status = 'open' RETURNING *`,
      [id],
      manager,
    );
    return rows[0] ? hydrate(this.dataSource, DomainAlertEntity, rows[0]) : null;
  }

  /** Deletes raw results older than 24 hours and inactive DNS records gone for a week; how many of each. */
  async pruneOld(): Promise<{ results: number; records: number }> {
    const results = await this.affected(`DELETE FROM domain_check_results WHERE checked_at < now() - make_interval(hours => $1)`, [
      RAW_RESULTS_HOURS,
    ]);
    // a record gone for a week is history enough; without this a domain rotating TXT values grows without end
    const records = await this.affected(
      `DELETE FROM dns_records WHERE NOT is_active AND last_seen_at < now() - make_interval(days => $1)`,
      [INACTIVE_RECORDS_DAYS],
    );
    return { results, records };
  }

  /** A write that finds its domain deleted under it (the foreign key refuses the row) writes nothing. */
  private async ifDomainExists(write: () => Promise<RawRow[]>): Promise<RawRow[]> {
    try {
      return await write();
    } catch (error) {
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) return [];
      throw error;
    }
  }

  /** The rows a statement returned, whatever its kind (TypeORM shapes an UPDATE's result differently from an INSERT's). */
  private async rows(sql: string, params: unknown[], manager?: EntityManager): Promise<RawRow[]> {
    return (await this.run(sql, params, manager)).records as RawRow[];
  }

  private async affected(sql: string, params: unknown[]): Promise<number> {
    return (await this.run(sql, params)).affected ?? 0;
  }

  private async run(sql: string, params: unknown[], manager?: EntityManager) {
    const runner = manager?.queryRunner ?? this.dataSource.createQueryRunner();
    try {
      return await runner.query(sql, params, true);
    } finally {
      if (!manager?.queryRunner) await runner.release();
    }
  }

  /** A row as the database returned it, with its columns read into the entity's properties the way TypeORM reads them. */
}
