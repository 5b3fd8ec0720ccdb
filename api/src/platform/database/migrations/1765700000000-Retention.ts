import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Data retention: one row of settings every replica prunes by, with the daily prune's claim and its last outcome,
 * and the indexes that let the prune find old breaker transitions and long-expired tokens without a table scan.
 */
export class Retention1765700000000 implements MigrationInterface {
  name = 'Retention1765700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // the defaults as they stood when the table was made; the contracts' RETENTION_DEFAULTS say the same
    await queryRunner.query(`
      CREATE TABLE retention_settings (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        audit_days integer NOT NULL DEFAULT 365 CHECK (audit_days BETWEEN 1 AND 3650),
        check_result_days integer NOT NULL DEFAULT 30 CHECK (check_result_days BETWEEN 1 AND 3650),
        transition_days integer NOT NULL DEFAULT 90 CHECK (transition_days BETWEEN 1 AND 3650),
        notification_days integer NOT NULL DEFAULT 90 CHECK (notification_days BETWEEN 1 AND 3650),
        pruning_since timestamptz,
        last_pruned_at timestamptz,
        last_pruned jsonb
      )`);
    await queryRunner.query('INSERT INTO retention_settings DEFAULT VALUES');
    await queryRunner.query('CREATE INDEX breaker_transitions_at ON breaker_transitions (at)');
    await queryRunner.query('CREATE INDEX api_tokens_expires_at ON api_tokens (expires_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX api_tokens_expires_at');
    await queryRunner.query('DROP INDEX breaker_transitions_at');
    await queryRunner.query('DROP TABLE retention_settings');
  }
}
