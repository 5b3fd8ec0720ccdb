import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Resilience drills: each drill with its steps and expectations; the breakers a running drill holds (one drill per
 * breaker at a time, the primary key says so); and, per step and instance, when its fault was sent, applied or refused.
 */
export class Drills1767500000000 implements MigrationInterface {
  name = 'Drills1767500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE drills (
        id serial PRIMARY KEY,
        name text NOT NULL,
        state text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'finished', 'stopped')),
        started_at timestamptz NOT NULL DEFAULT now(),
        ends_at timestamptz NOT NULL,
        ended_at timestamptz,
        started_by uuid REFERENCES users (id) ON DELETE SET NULL,
        stopped_by uuid REFERENCES users (id) ON DELETE SET NULL,
        steps jsonb NOT NULL,
        expectations jsonb NOT NULL DEFAULT '[]',
        verdict text NOT NULL DEFAULT 'pending' CHECK (verdict IN ('met', 'missed', 'pending')),
        told boolean NOT NULL DEFAULT false
      )`);
    await queryRunner.query("CREATE INDEX drills_running ON drills (ends_at) WHERE state = 'running'");
    await queryRunner.query("CREATE INDEX drills_pending ON drills (id) WHERE verdict = 'pending' OR NOT told");
    await queryRunner.query(`
      CREATE TABLE drill_breakers (
        breaker_id integer PRIMARY KEY REFERENCES circuit_breaker_configs (id) ON DELETE CASCADE,
        drill_id integer NOT NULL REFERENCES drills (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE TABLE drill_faults (
        drill_id integer NOT NULL REFERENCES drills (id) ON DELETE CASCADE,
        step integer NOT NULL,
        instance text NOT NULL,
        sent_at timestamptz NOT NULL DEFAULT now(),
        applied_at timestamptz,
        refused text,
        PRIMARY KEY (drill_id, step, instance)
      )`);
    await queryRunner.query('ALTER TABLE notification_events DROP CONSTRAINT notification_events_subject_kind_check');
    await queryRunner.query(
      "ALTER TABLE notification_events ADD CONSTRAINT notification_events_subject_kind_check CHECK (subject_kind IN ('breaker', 'domain', 'remote', 'status_page', 'alert_group', 'slo', 'drill'))",
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM notification_events WHERE subject_kind = 'drill'");
    await queryRunner.query('ALTER TABLE notification_events DROP CONSTRAINT notification_events_subject_kind_check');
    await queryRunner.query(
      "ALTER TABLE notification_events ADD CONSTRAINT notification_events_subject_kind_check CHECK (subject_kind IN ('breaker', 'domain', 'remote', 'status_page', 'alert_group', 'slo'))",
    );
    await queryRunner.query('DROP TABLE drill_faults');
    await queryRunner.query('DROP TABLE drill_breakers');
    await queryRunner.query('DROP TABLE drills');
  }
}
