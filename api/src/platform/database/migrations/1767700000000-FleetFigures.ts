import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * - fleet_figures: each agent's or scraped breaker's figures merged over its instances, written by the one replica that
 *   holds the cluster role `fleet.figures` and read by the others, so that a fleet's instance rows are read and merged
 *   once for the cluster rather than on every replica. Unlogged, like breaker_instances: the holder writes every row
 *   again within a minute, so what a crash of the database drops comes back.
 * - breaker_instances.writes and .newest: how many times the row was written and the period its last write added, so
 *   that the holder, which keeps every row's periods, reads only the newest one of a row written once since its last
 *   read (a row written twice meanwhile is read whole).
 */
export class FleetFigures1767700000000 implements MigrationInterface {
  name = 'FleetFigures1767700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE UNLOGGED TABLE fleet_figures (
        config_id integer PRIMARY KEY REFERENCES circuit_breaker_configs (id) ON DELETE CASCADE,
        stats jsonb NOT NULL,
        written_by bigint NOT NULL DEFAULT txid_current()
      )`);
    await queryRunner.query('CREATE INDEX fleet_figures_written_by ON fleet_figures (written_by)');
    await queryRunner.query('ALTER TABLE breaker_instances ADD COLUMN writes integer NOT NULL DEFAULT 1, ADD COLUMN newest jsonb');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE breaker_instances DROP COLUMN writes, DROP COLUMN newest');
    await queryRunner.query('DROP TABLE fleet_figures');
  }
}
