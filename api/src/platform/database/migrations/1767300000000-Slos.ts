import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Service level objectives and their counts: good and all events per SLO per minute (`slo_minutes`, kept 7 hours: the
 * burn rates of 5 minutes to 6 hours read them), per hour (`slo_hours`, kept 4 days: the 1 d and 3 d burn rates) and per
 * day (`slo_days`, kept 400 days: the SLO's window, its burn-down and the monthly reports). Counts are recomputed from
 * the hub's own figures (metric buckets, check buckets, remote loads, agents' counters) by the one replica holding
 * `slos.counts`, so a minute written twice holds the same numbers. Each time key is a whole number of minutes, hours or
 * days since 1970 (4 bytes, not a timestamp's 8), so that 1,000 SLOs over 30 days stay well under 100 MB. A new SLO (or
 * one whose indicator changed) is first counted over its whole window from what the hub still keeps (`backfilled`).
 * Each SLO's burn-rate alerts remember since when they fire (`alerts`), so that each raises its event once until it
 * clears; events about an SLO have the subject kind 'slo'.
 */
export class Slos1767300000000 implements MigrationInterface {
  name = 'Slos1767300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE slos (
        id serial PRIMARY KEY,
        name text NOT NULL,
        description text,
        target numeric(6, 3) NOT NULL CHECK (target BETWEEN 50 AND 99.999),
        slo_window text NOT NULL CHECK (slo_window IN ('7d', '28d', '30d')),
        indicator jsonb NOT NULL,
        kind text NOT NULL CHECK (kind IN ('breaker-calls', 'breaker-latency', 'domain-uptime', 'remote-loads')),
        service text,
        alerts jsonb NOT NULL DEFAULT '{}',
        backfilled boolean NOT NULL DEFAULT false,
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX slos_name ON slos (lower(name))');
    await queryRunner.query(`
      CREATE TABLE slo_minutes (
        slo_id integer NOT NULL REFERENCES slos (id) ON DELETE CASCADE,
        minute integer NOT NULL,
        good integer NOT NULL,
        total integer NOT NULL,
        PRIMARY KEY (slo_id, minute)
      )`);
    for (const [table, key] of [
      ['slo_hours', 'hour'],
      ['slo_days', 'day'],
    ]) {
      await queryRunner.query(`
        CREATE TABLE ${table} (
          slo_id integer NOT NULL REFERENCES slos (id) ON DELETE CASCADE,
          ${key} integer NOT NULL,
          good bigint NOT NULL,
          total bigint NOT NULL,
          PRIMARY KEY (slo_id, ${key})
        )`);
    }
    // agents' and scraped breakers count up in breaker_instances.totals: the increase since the last reading is what
    // the instance's calls did meanwhile, kept per breaker and minute for the breakers an SLO names
    await queryRunner.query(`
      CREATE TABLE slo_breaker_minutes (
        config_id integer NOT NULL REFERENCES circuit_breaker_configs (id) ON DELETE CASCADE,
        minute integer NOT NULL,
        success bigint NOT NULL DEFAULT 0,
        failure bigint NOT NULL DEFAULT 0,
        timeout bigint NOT NULL DEFAULT 0,
        rejected bigint NOT NULL DEFAULT 0,
        latency bigint[] NOT NULL,
        PRIMARY KEY (config_id, minute)
      )`);
    await queryRunner.query(`
      CREATE TABLE slo_instance_readings (
        config_id integer NOT NULL REFERENCES circuit_breaker_configs (id) ON DELETE CASCADE,
        instance text NOT NULL,
        totals bigint[] NOT NULL,
        read_at timestamptz NOT NULL,
        PRIMARY KEY (config_id, instance)
      )`);
    await queryRunner.query('ALTER TABLE notification_events DROP CONSTRAINT notification_events_subject_kind_check');
    await queryRunner.query(
      "ALTER TABLE notification_events ADD CONSTRAINT notification_events_subject_kind_check CHECK (subject_kind IN ('breaker', 'domain', 'remote', 'status_page', 'alert_group', 'slo'))",
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM notification_events WHERE subject_kind = 'slo'");
    await queryRunner.query('ALTER TABLE notification_events DROP CONSTRAINT notification_events_subject_kind_check');
    await queryRunner.query(
      "ALTER TABLE notification_events ADD CONSTRAINT notification_events_subject_kind_check CHECK (subject_kind IN ('breaker', 'domain', 'remote', 'status_page', 'alert_group'))",
    );
    await queryRunner.query('DROP TABLE slo_instance_readings');
    await queryRunner.query('DROP TABLE slo_breaker_minutes');
    await queryRunner.query('DROP TABLE slo_days');
    await queryRunner.query('DROP TABLE slo_hours');
    await queryRunner.query('DROP TABLE slo_minutes');
    await queryRunner.query('DROP TABLE slos');
  }
}
