import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An operator's manual override of a breaker (forced open, forced closed, disabled) is kept with its
 * configuration: every replica applies it, and so does a replica that starts later.
 */
export class BreakerOverride1764700000000 implements MigrationInterface {
  name = 'BreakerOverride1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE circuit_breaker_configs
        ADD COLUMN override text NOT NULL DEFAULT 'none'
        CHECK (override IN ('none', 'forced-open', 'forced-closed', 'disabled'))`);
    await queryRunner.query('CREATE INDEX breaker_transitions_config_id_idx ON breaker_transitions (config_id, id DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX breaker_transitions_config_id_idx');
    await queryRunner.query('ALTER TABLE circuit_breaker_configs DROP COLUMN override');
  }
}
