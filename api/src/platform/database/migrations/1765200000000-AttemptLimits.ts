import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The addresses accounts signed in from (spared the per-account sign-in backoff), and when each elevation link
 * was sent (the cooldown between two link e-mails).
 */
export class AttemptLimits1765200000000 implements MigrationInterface {
  name = 'AttemptLimits1765200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sign_in_known_addresses (
        key_hash text PRIMARY KEY,
        signed_in_at timestamptz NOT NULL DEFAULT now()
      )`);
    // for clearing out addresses not seen for long
    await queryRunner.query('CREATE INDEX sign_in_known_addresses_signed_in_at ON sign_in_known_addresses (signed_in_at)');
    await queryRunner.query('ALTER TABLE elevation_tokens ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE elevation_tokens DROP COLUMN created_at');
    await queryRunner.query('DROP TABLE sign_in_known_addresses');
  }
}
