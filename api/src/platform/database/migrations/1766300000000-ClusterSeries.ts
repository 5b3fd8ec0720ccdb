import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What /metrics needs to write every service instance's breaker once across the cluster:
 * - breaker_instances.totals: each instance's calls since it first reported (see INSTANCE_TOTALS), added up by the
 *   statement that writes its report, so that whichever replica writes the series writes the same counters;
 * - cluster_leases: a role one replica holds at a time, renewed while it lives and taken over once it lapses (the
 *   replica that writes the agents' breakers is the holder of `metrics.agent-series`).
 */
export class ClusterSeries1766300000000 implements MigrationInterface {
  name = 'ClusterSeries1766300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE breaker_instances ADD COLUMN totals float8[] NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`
      CREATE TABLE cluster_leases (
        role text PRIMARY KEY,
        holder uuid NOT NULL,
        lease_until timestamptz NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE cluster_leases');
    await queryRunner.query('ALTER TABLE breaker_instances DROP COLUMN totals');
  }
}
