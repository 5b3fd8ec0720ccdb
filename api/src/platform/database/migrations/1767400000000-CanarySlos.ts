import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Canaries judged by SLOs: the SLOs a canary names (kept with the release, dropped with the canary), and which of
 * a version's load reports are errors its code threw after it rendered — bad for its SLOs, not failed loads.
 */
export class CanarySlos1767400000000 implements MigrationInterface {
  name = 'CanarySlos1767400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("ALTER TABLE remote_releases ADD COLUMN canary_slo_ids integer[] NOT NULL DEFAULT '{}'");
    await queryRunner.query('ALTER TABLE remote_loads ADD COLUMN after_render boolean NOT NULL DEFAULT false');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE remote_loads DROP COLUMN after_render');
    await queryRunner.query('ALTER TABLE remote_releases DROP COLUMN canary_slo_ids');
  }
}
