import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An operator's manual override of a breaker (forced open, forced closed, disabled) is kept with its
 * configuration, so every replica applies it, and so does a replica that starts later. `version` is raised by
 * every change of the row under its lock, so replicas receiving changes out of commit order apply only the
 * newest. The journal is paged by id.
 */
export class BreakerOverride1764700000000 implements MigrationInterface {
  name = 'BreakerOverride1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE circuit_breaker_configs
        ADD COLUMN override text NOT NULL DEFAULT 'none'
          CHECK (override IN ('none', 'forced-open', 'forced-closed', 'disabled')),
        ADD COLUMN version integer NOT NULL DEFAULT 0`);
    await queryRunner.query('CREATE INDEX breaker_transitions_config_id_idx ON breaker_transitions (config_id, id DESC)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX breaker_transitions_config_id_idx');
    await queryRunner.query('ALTER TABLE circuit_breaker_configs DROP COLUMN override, DROP COLUMN version');
  }
}
