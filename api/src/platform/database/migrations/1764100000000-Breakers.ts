import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Circuit-breaker configurations and the journal of their state transitions. */
export class Breakers1764100000000 implements MigrationInterface {
  name = 'Breakers1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE circuit_breaker_configs (
        id serial PRIMARY KEY,
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('simple', 'adaptive', 'bulkhead')),
        failure_threshold integer NOT NULL,
        timeout_ms integer NOT NULL,
        recovery_time_ms integer NOT NULL,
        success_threshold integer NOT NULL,
        max_concurrent_calls integer,
        max_queue integer,
        minimum_calls integer,
        slow_call_ms integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE breaker_transitions (
        id bigserial PRIMARY KEY,
        config_id integer NOT NULL REFERENCES circuit_breaker_configs (id) ON DELETE CASCADE,
        from_state text NOT NULL,
        to_state text NOT NULL,
        reason text NOT NULL,
        instance_id uuid,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX breaker_transitions_config_at ON breaker_transitions (config_id, at DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE breaker_transitions');
    await queryRunner.query('DROP TABLE circuit_breaker_configs');
  }
}
