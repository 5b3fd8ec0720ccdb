import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Personal access tokens (only a SHA-256 of each secret is kept), the per-minute request counts their rate limit
 * shares across replicas, and which token an audited change was made through.
 */
export class ApiTokens1765400000000 implements MigrationInterface {
  name = 'ApiTokens1765400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE api_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        token_hash text NOT NULL UNIQUE,
        prefix text NOT NULL,
        permissions text[] NOT NULL,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        last_used_from text
      )`);
    await queryRunner.query('CREATE INDEX api_tokens_user_id ON api_tokens (user_id)');
    await queryRunner.query(`
      CREATE TABLE api_token_usage (
        token_id uuid NOT NULL REFERENCES api_tokens (id) ON DELETE CASCADE,
        window_start timestamptz NOT NULL,
        requests integer NOT NULL,
        PRIMARY KEY (token_id, window_start)
      )`);
    await queryRunner.query('CREATE INDEX api_token_usage_window_start ON api_token_usage (window_start)');
    await queryRunner.query('ALTER TABLE audit_entries ADD COLUMN via jsonb');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE audit_entries DROP COLUMN via');
    await queryRunner.query('DROP TABLE api_token_usage');
    await queryRunner.query('DROP TABLE api_tokens');
  }
}
