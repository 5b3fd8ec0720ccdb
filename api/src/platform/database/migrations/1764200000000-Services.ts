import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The services tested through their circuit breakers. */
export class Services1764200000000 implements MigrationInterface {
  name = 'Services1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE services (
        id serial PRIMARY KEY,
        name text NOT NULL,
        endpoint text NOT NULL,
        failure_rate real NOT NULL DEFAULT 0,
        average_response_time integer NOT NULL DEFAULT 100,
        circuit_breaker_config_id integer REFERENCES circuit_breaker_configs (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE services');
  }
}
