import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Monitored domains and what their checks find: ownership verification, the TLS certificate, DNS records,
 * subdomains, uptime (raw results, per-minute buckets and the summary), and alerts. Everything a domain has
 * goes with it when it is deleted.
 */
export class Domains1764500000000 implements MigrationInterface {
  name = 'Domains1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE domains (
        id serial PRIMARY KEY,
        domain text NOT NULL CONSTRAINT domains_domain_key UNIQUE,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'down', 'failed')),
        registrar text,
        expires_at timestamptz,
        verification_token text NOT NULL,
        next_check_at timestamptz NOT NULL DEFAULT now(),
        check_lease_until timestamptz,
        check_owner uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by uuid REFERENCES users (id) ON DELETE SET NULL
      )`);
    // The scheduler looks for the domains whose round is due.
    await queryRunner.query('CREATE INDEX domains_next_check_at ON domains (next_check_at)');

    await queryRunner.query(`
      CREATE TABLE domain_verifications (
        id serial PRIMARY KEY,
        domain_id integer NOT NULL CONSTRAINT domain_verifications_domain_id_key UNIQUE REFERENCES domains (id) ON DELETE CASCADE,
        record_name text NOT NULL,
        record_value text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verifying', 'verified', 'failed')),
        reason text,
        checked_at timestamptz,
        verified_at timestamptz
      )`);

    await queryRunner.query(`
      CREATE TABLE ssl_certificates (
        id serial PRIMARY KEY,
        domain_id integer NOT NULL CONSTRAINT ssl_certificates_domain_id_key UNIQUE REFERENCES domains (id) ON DELETE CASCADE,
        certificate_type text,
        status text NOT NULL CHECK (status IN ('active', 'expired', 'invalid', 'unreachable')),
        reason text,
        fingerprint text,
        issued_at timestamptz,
        expires_at timestamptz,
        auto_renew boolean NOT NULL DEFAULT false,
        auto_renew_overridden boolean NOT NULL DEFAULT false,
        checked_at timestamptz NOT NULL DEFAULT now()
      )`);

    await queryRunner.query(`
      CREATE TABLE dns_records (
        id serial PRIMARY KEY,
        domain_id integer NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
        record_type text NOT NULL CHECK (record_type IN ('A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS')),
        name text NOT NULL,
        value text NOT NULL,
        ttl integer NOT NULL,
        is_active boolean NOT NULL DEFAULT true,
        last_seen_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One row per record; the value is indexed through its digest because a TXT record may be longer than an index entry can hold.
    await queryRunner.query('CREATE UNIQUE INDEX dns_records_identity ON dns_records (domain_id, record_type, name, md5(value))');

    await queryRunner.query(`
      CREATE TABLE subdomains (
        id serial PRIMARY KEY,
        domain_id integer NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT subdomains_domain_id_name_key UNIQUE (domain_id, name)
      )`);

    await queryRunner.query(`
      CREATE TABLE domain_monitoring (
        id serial PRIMARY KEY,
        domain_id integer NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
        monitoring_type text NOT NULL DEFAULT 'uptime' CHECK (monitoring_type IN ('uptime')),
        last_status text CHECK (last_status IN ('up', 'down')),
        response_time_ms integer,
        uptime_percentage double precision,
        last_check timestamptz,
        consecutive_failures integer NOT NULL DEFAULT 0,
        consecutive_slow integer NOT NULL DEFAULT 0,
        failing_since timestamptz,
        slow_since timestamptz,
        CONSTRAINT domain_monitoring_domain_id_type_key UNIQUE (domain_id, monitoring_type)
      )`);

    await queryRunner.query(`
      CREATE TABLE domain_check_results (
        id bigserial PRIMARY KEY,
        domain_id integer NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
        checked_at timestamptz NOT NULL DEFAULT now(),
        status text NOT NULL CHECK (status IN ('up', 'down')),
        response_time_ms integer,
        error text
      )`);
    await queryRunner.query('CREATE INDEX domain_check_results_domain ON domain_check_results (domain_id, checked_at)');
    await queryRunner.query('CREATE INDEX domain_check_results_checked_at ON domain_check_results (checked_at)');

    await queryRunner.query(`
      CREATE TABLE domain_check_buckets (
        domain_id integer NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
        minute timestamptz NOT NULL,
        checks integer NOT NULL DEFAULT 0,
        failures integer NOT NULL DEFAULT 0,
        total_response_ms integer NOT NULL DEFAULT 0,
        PRIMARY KEY (domain_id, minute)
      )`);
    await queryRunner.query('CREATE INDEX domain_check_buckets_minute ON domain_check_buckets (minute)');

    await queryRunner.query(`
      CREATE TABLE domain_alerts (
        id serial PRIMARY KEY,
        domain_id integer NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
        alert_type text NOT NULL,
        severity text NOT NULL CHECK (severity IN ('critical', 'high', 'medium', 'low')),
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
        triggered_at timestamptz NOT NULL DEFAULT now(),
        resolved_at timestamptz,
        message text NOT NULL,
        dedupe_key text
      )`);
    // Each condition (a threshold of one certificate, one outage) is raised once, whichever replica sees it first.
    await queryRunner.query(
      'CREATE UNIQUE INDEX domain_alerts_dedupe ON domain_alerts (domain_id, dedupe_key) WHERE dedupe_key IS NOT NULL',
    );
    await queryRunner.query(`CREATE INDEX domain_alerts_open ON domain_alerts (domain_id, alert_type) WHERE status = 'open'`);
    await queryRunner.query('CREATE INDEX domain_alerts_triggered_at ON domain_alerts (triggered_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'domain_alerts',
      'domain_check_buckets',
      'domain_check_results',
      'domain_monitoring',
      'subdomains',
      'dns_records',
      'ssl_certificates',
      'domain_verifications',
      'domains',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
