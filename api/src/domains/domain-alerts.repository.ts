import { Injectable } from '@nestjs/common';
import type { DomainAlertType } from '@cbh/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { hydrate, SqlRunner } from '../platform';
import { DomainAlertEntity } from './entities/domain-alert.entity';
import { ifDomainExists, type NewDomainAlert } from './domains.repository';

/** A domain's alerts: raised once per condition, resolved once, each decided by the database in one statement. */
@Injectable()
export class DomainAlertsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: SqlRunner,
  ) {}

  /**
   * Opens the alert unless the domain already has one with its dedupe key (open or resolved): the alert when
   * this call opened it, null otherwise — so that exactly one replica announces it.
   */
  async openAlert(domainId: number, alert: NewDomainAlert): Promise<DomainAlertEntity | null> {
    const rows = await ifDomainExists(() =>
      this.sql.rows(
        `INSERT INTO domain_alerts (domain_id, alert_type, severity, message, dedupe_key)
         SELECT $1::int, $2::text, $3::text, $4::text, $5::text WHERE EXISTS (SELECT 1 FROM domains WHERE id = $1)
         ON CONFLICT (domain_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
         RETURNING *`,
        [domainId, alert.alertType, alert.severity, alert.message, alert.dedupeKey],
      ),
    );
    return rows[0] ? hydrate(this.dataSource, DomainAlertEntity, rows[0]) : null;
  }

  /**
   * Resolves the domain's open alerts of those types except those with one of keepKeys (the conditions a round
   * still sees), in one statement: a nearer certificate threshold supersedes the farther one, an outage that ended
   * is over. A dedupe key names its alert's type, so one list of keys serves every type.
   */
  async resolveAlertsExcept(
    domainId: number,
    alertTypes: readonly DomainAlertType[],
    keepKeys: readonly string[],
  ): Promise<DomainAlertEntity[]> {
    if (alertTypes.length === 0) return [];
    const rows = await this.sql.rows(
      `UPDATE domain_alerts SET status = 'resolved', resolved_at = now()
       WHERE domain_id = $1 AND alert_type = ANY($2::text[]) AND status = 'open' AND NOT (coalesce(dedupe_key, '') = ANY($3::text[]))
       RETURNING *`,
      [domainId, [...alertTypes], [...keepKeys]],
    );
    return rows.map((row) => hydrate(this.dataSource, DomainAlertEntity, row));
  }

  /** Resolves one alert if it is open; null when it is not (already resolved, or no such alert). */
  async resolveAlert(id: number, manager?: EntityManager): Promise<DomainAlertEntity | null> {
    const rows = await this.sql.rows(
      `UPDATE domain_alerts SET status = 'resolved', resolved_at = now() WHERE id = $1 AND status = 'open' RETURNING *`,
      [id],
      manager,
    );
    return rows[0] ? hydrate(this.dataSource, DomainAlertEntity, rows[0]) : null;
  }
}
