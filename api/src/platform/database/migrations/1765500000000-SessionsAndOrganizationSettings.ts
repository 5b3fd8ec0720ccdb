import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a person sees of each of their sessions (when it signed in and was last seen, its browser, where from), and
 * the organisation's settings: invitation domains, the longest token lifetime, the idle limit of sessions.
 */
export class SessionsAndOrganizationSettings1765500000000 implements MigrationInterface {
  name = 'SessionsAndOrganizationSettings1765500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE sessions
        ADD COLUMN signed_in_at timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN last_seen_at timestamptz NOT NULL DEFAULT now(),
        ADD COLUMN user_agent text,
        ADD COLUMN address text`);
    await queryRunner.query(`
      ALTER TABLE organizations
        ADD COLUMN invitation_domains text[] NOT NULL DEFAULT '{}',
        ADD COLUMN max_token_days integer NOT NULL DEFAULT 365,
        ADD COLUMN idle_session_minutes integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE organizations DROP COLUMN invitation_domains, DROP COLUMN max_token_days, DROP COLUMN idle_session_minutes',
    );
    await queryRunner.query(
      'ALTER TABLE sessions DROP COLUMN signed_in_at, DROP COLUMN last_seen_at, DROP COLUMN user_agent, DROP COLUMN address',
    );
  }
}
