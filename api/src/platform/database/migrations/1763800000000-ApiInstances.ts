import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One row per API process: when it started and when it last reported in. */
export class ApiInstances1763800000000 implements MigrationInterface {
  name = 'ApiInstances1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE api_instances (
        id uuid PRIMARY KEY,
        hostname text NOT NULL,
        pid integer NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX api_instances_last_seen_at ON api_instances (last_seen_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE api_instances');
  }
}
