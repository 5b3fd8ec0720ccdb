import { Injectable } from '@nestjs/common';
import { hydrate, SqlRunner, type RawRow } from '../platform';
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
import { DomainEntity } from './entities/domain.entity';

/** An uptime check slower than this counts towards the slow-response alert. */
export const SLOW_RESPONSE_MS = 2000;
/** The uptime percentage covers this many days of buckets. */
export const UPTIME_WINDOW_DAYS = 30;
/** Raw results are kept this long; the buckets as long as the check-result retention setting says (api/src/retention). */
export const RAW_RESULTS_HOURS = 24;
/** Inactive DNS records are kept this long after they were last seen. */
export const INACTIVE_RECORDS_DAYS = 7;

/** A due domain claimed for a round, and whether its ownership is verified. */
export interface ClaimedDomain {
  domain: DomainEntity;
  verified: boolean;
}

/** What ending a round found: whether what the screens show changed, and whether its replica still held the lease. */
export interface RoundEnd {
  shownChanged: boolean;
  held: boolean;
}

/** A domain as a status page's component judges it. */
export interface DomainHealth {
  id: number;
  name: string;
  down: boolean;
  slow: boolean;
}

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

/** A write that finds its domain deleted under it (the foreign key refuses the row) writes nothing. */
export async function ifDomainExists(write: () => Promise<RawRow[]>): Promise<RawRow[]> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) return [];
    throw error;
  }
}

/**
 * The domains table's statements. This and the other domain repositories hold the statements that must stay single
 * statements: several replicas run checks on one database, so claiming a round, adding to a bucket, raising an alert
 * once and resolving it are each decided by the database in one statement, where a read followed by a write would let
 * two replicas both act. A domain deleted while its check ran makes a write here do nothing (null or empty) rather
 * than fail.
 */
@Injectable()
export class DomainsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {}

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
    await this.sql.rows("SELECT pg_advisory_xact_lock(hashtext('domains.add'))", [], manager);
    const [counts] = (await this.sql.rows(
      'SELECT count(*)::int AS total, (count(*) FILTER (WHERE created_by = $1))::int AS mine FROM domains',
      [createdBy],
      manager,
    )) as { total: number; mine: number }[];
    if (counts!.mine + domains.length > quotas.perUser) return 'per-user';
    if (counts!.total + domains.length > quotas.total) return 'total';
    const rows = await this.sql.rows(
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
   * the domain claimable again. Each comes with whether its ownership is verified, which decides what its round
   * looks at, read by the same statement.
   */
  async claimDue(owner: string, limit: number, leaseSeconds: number): Promise<ClaimedDomain[]> {
    const rows = await this.sql.rows(
      `UPDATE domains SET check_owner = $1, check_lease_until = now() + make_interval(secs => $3)
       WHERE id IN (
         SELECT id FROM domains
         WHERE next_check_at <= now() AND (check_lease_until IS NULL OR check_lease_until < now())
         ORDER BY next_check_at, id LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING domains.*,
         EXISTS (SELECT 1 FROM domain_verifications v WHERE v.domain_id = domains.id AND v.status = 'verified') AS verified`,
      [owner, limit, leaseSeconds],
    );
    return rows.map((row) => ({ domain: hydrate(this.dataSource, DomainEntity, row), verified: row.verified === true }));
  }

  /** When a domain's round may next be claimed (ms since the epoch); null without domains. */
  nextDue(): Promise<number | null> {
    return this.sql.earliestDue('domains', 'next_check_at', 'check_lease_until');
  }

  /**
   * Ends a round of the domain in one statement: the status the round found; whether what the screens show of the
   * domain beyond its latest check — status, registration, certificate, DNS records (not their TTLs, which
   * resolvers count down), subdomains — differs from when a round last ended (the digest swapped in place on the
   * row locked first, so two rounds cannot both claim a change); and, while owner still holds the lease, the next
   * round due one interval after this one was due (a steady cadence, whatever the round took; never in the past, so
   * a replica that fell behind does not run a backlog) and the lease released. held is false when owner no longer
   * held it (it lapsed and another replica took the domain). Null when the domain is gone.
   */
  async endRound(domainId: number, round: { owner: string; intervalSeconds: number; status: DomainStatus }): Promise<RoundEnd | null> {
    const rows = await this.sql.rows(
      `WITH current AS (
         SELECT d.id, coalesce(d.check_owner = $2::uuid, false) AS held, d.shown_digest AS previous,
           md5(concat_ws('|', $4::text, d.registrar, d.expires_at,
             (SELECT concat_ws(',', c.status, c.fingerprint, c.reason, c.issued_at, c.expires_at, c.auto_renew)
                FROM ssl_certificates c WHERE c.domain_id = d.id),
             (SELECT string_agg(concat_ws(' ', r.record_type, r.name, r.value, r.is_active), ';' ORDER BY r.id)
                FROM dns_records r WHERE r.domain_id = d.id),
             (SELECT count(*) FROM subdomains s WHERE s.domain_id = d.id))) AS digest
         FROM domains d WHERE d.id = $1 FOR NO KEY UPDATE
       )
       UPDATE domains SET status = $4, shown_digest = current.digest,
         next_check_at = CASE WHEN current.held THEN greatest(domains.next_check_at + make_interval(secs => $3), now())
                         ELSE domains.next_check_at END,
         check_owner = CASE WHEN current.held THEN NULL ELSE domains.check_owner END,
         check_lease_until = CASE WHEN current.held THEN NULL ELSE domains.check_lease_until END
       FROM current WHERE domains.id = current.id
       RETURNING current.held, current.previous IS DISTINCT FROM current.digest AS shown_changed`,
      [domainId, round.owner, round.intervalSeconds, round.status],
    );
    return rows[0] ? { held: rows[0].held === true, shownChanged: rows[0].shown_changed === true } : null;
  }

  /**
   * The earliest added domain whose ownership has been proven (verified_at stays set while a re-check is under
   * way, so the choice does not flicker when its owner presses Verify again); null before any is.
   */
  async primaryDomainId(): Promise<number | null> {
    const rows = await this.sql.rows(
      `SELECT d.id FROM domains d JOIN domain_verifications v ON v.domain_id = d.id
       WHERE v.verified_at IS NOT NULL ORDER BY d.created_at, d.id LIMIT 1`,
      [],
    );
    return rows[0] ? Number(rows[0].id) : null;
  }

  /** The registrar and registration expiry, null when the registry could not tell. */
  async saveRegistration(domainId: number, registration: { registrar: string | null; expiresAt: Date | null }): Promise<void> {
    await this.dataSource.getRepository(DomainEntity).update({ id: domainId }, registration);
  }

  /** What a status page needs of some domains: down (marked down, or the last uptime check failed) and slow (a slow-response alert open). */
  async health(ids: readonly number[]): Promise<DomainHealth[]> {
    if (ids.length === 0) return [];
    const rows = await this.sql.rows(
      `SELECT d.id, d.domain AS name,
              (d.status = 'down' OR EXISTS (SELECT 1 FROM domain_monitoring m WHERE m.domain_id = d.id AND m.last_status = 'down')) AS down,
              EXISTS (SELECT 1 FROM domain_alerts a WHERE a.domain_id = d.id AND a.status = 'open' AND a.alert_type = 'slow_response') AS slow
       FROM domains d WHERE d.id = ANY($1::int[])`,
      [ids],
    );
    return rows.map((row) => ({ id: Number(row.id), name: String(row.name), down: row.down === true, slow: row.slow === true }));
  }
}
