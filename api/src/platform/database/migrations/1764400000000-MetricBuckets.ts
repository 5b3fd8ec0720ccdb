import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Per-second call counts of each breaker on each replica, kept for the dashboard's 24-hour figures. */
export class MetricBuckets1764400000000 implements MigrationInterface {
  name = 'MetricBuckets1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE metric_buckets (
        config_id integer NOT NULL REFERENCES circuit_breaker_configs (id) ON DELETE CASCADE,
        second timestamptz NOT NULL,
        instance_id uuid NOT NULL,
        success integer NOT NULL DEFAULT 0,
        failure integer NOT NULL DEFAULT 0,
        timeout integer NOT NULL DEFAULT 0,
        short_circuited integer NOT NULL DEFAULT 0,
        bulkhead_rejected integer NOT NULL DEFAULT 0,
        PRIMARY KEY (config_id, second, instance_id)
      )`);
    await queryRunner.query('CREATE INDEX metric_buckets_second ON metric_buckets (second)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE metric_buckets');
  }
}
