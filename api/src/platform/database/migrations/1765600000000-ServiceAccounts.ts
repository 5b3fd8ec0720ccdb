import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Service accounts: rows of users of the kind 'service', so that token ownership, the tokens' judgement against
 * their owner and the account caches treat them as any account. Such a row can never hold a password, and records
 * who created it.
 */
export class ServiceAccounts1765600000000 implements MigrationInterface {
  name = 'ServiceAccounts1765600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE users ADD COLUMN kind text NOT NULL DEFAULT 'person' CHECK (kind IN ('person', 'service'))`);
    await queryRunner.query('ALTER TABLE users ADD COLUMN created_by uuid REFERENCES users (id) ON DELETE SET NULL');
    await queryRunner.query(
      `ALTER TABLE users ADD CONSTRAINT users_service_without_password CHECK (kind = 'person' OR password_hash IS NULL)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM users WHERE kind = 'service'`);
    await queryRunner.query('ALTER TABLE users DROP CONSTRAINT users_service_without_password');
    await queryRunner.query('ALTER TABLE users DROP COLUMN created_by');
    await queryRunner.query('ALTER TABLE users DROP COLUMN kind');
  }
}
