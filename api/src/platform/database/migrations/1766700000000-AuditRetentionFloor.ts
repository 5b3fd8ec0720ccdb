import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail is kept 90 days at least (AUDIT_RETENTION_MIN_DAYS): a setting below that, made before the floor,
 * is raised to it, and the table refuses a lower one whatever writes it, so no prune can erase a recent trail.
 */
export class AuditRetentionFloor1766700000000 implements MigrationInterface {
  name = 'AuditRetentionFloor1766700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('UPDATE retention_settings SET audit_days = 90 WHERE audit_days < 90');
    await queryRunner.query('ALTER TABLE retention_settings ADD CONSTRAINT retention_settings_audit_floor CHECK (audit_days >= 90)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE retention_settings DROP CONSTRAINT retention_settings_audit_floor');
  }
}
