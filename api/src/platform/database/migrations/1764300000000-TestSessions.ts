import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Load-test sessions: one running per configuration, owned by the replica that drives it. */
export class TestSessions1764300000000 implements MigrationInterface {
  name = 'TestSessions1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE test_sessions (
        id serial PRIMARY KEY,
        config_id integer NOT NULL REFERENCES circuit_breaker_configs (id) ON DELETE CASCADE,
        failure_rate integer NOT NULL,
        request_rate integer NOT NULL,
        duration_minutes integer NOT NULL,
        status text NOT NULL CHECK (status IN ('running', 'completed', 'stopped')),
        started_at timestamptz NOT NULL DEFAULT now(),
        ends_at timestamptz NOT NULL,
        stopped_at timestamptz,
        owner_instance uuid,
        heartbeat_at timestamptz NOT NULL DEFAULT now(),
        created_by uuid REFERENCES users (id) ON DELETE SET NULL
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX test_sessions_one_running ON test_sessions (config_id) WHERE status = 'running'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE test_sessions');
  }
}
