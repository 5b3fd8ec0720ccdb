import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Privilege elevation: the account's TOTP secret, attempts (for the limit), used codes and e-mail links. */
export class Elevation1764000000000 implements MigrationInterface {
  name = 'Elevation1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE users ADD COLUMN totp_secret text');
    await queryRunner.query(`
      CREATE TABLE elevation_attempts (
        id bigserial PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        method text NOT NULL,
        succeeded boolean NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX elevation_attempts_user_time ON elevation_attempts (user_id, created_at)');
    await queryRunner.query(`
      CREATE TABLE used_totp_steps (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        time_step bigint NOT NULL,
        PRIMARY KEY (user_id, time_step)
      )`);
    await queryRunner.query(`
      CREATE TABLE elevation_tokens (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE elevation_tokens');
    await queryRunner.query('DROP TABLE used_totp_steps');
    await queryRunner.query('DROP TABLE elevation_attempts');
    await queryRunner.query('ALTER TABLE users DROP COLUMN totp_secret');
  }
}
