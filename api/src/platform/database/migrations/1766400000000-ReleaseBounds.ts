import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Bounds on releasing: the remotes a token or a service account may release (null: every remote its owner may), and
 * each account's load reports counted per minute over every replica, so one account cannot flood the figures that
 * judge a canary.
 */
export class ReleaseBounds1766400000000 implements MigrationInterface {
  name = 'ReleaseBounds1766400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE api_tokens ADD COLUMN remotes text[]');
    await queryRunner.query('ALTER TABLE users ADD COLUMN release_remotes text[]');
    await queryRunner.query(`
      CREATE TABLE remote_load_reports (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        window_start timestamptz NOT NULL,
        reports integer NOT NULL,
        PRIMARY KEY (user_id, window_start)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE remote_load_reports');
    await queryRunner.query('ALTER TABLE users DROP COLUMN release_remotes');
    await queryRunner.query('ALTER TABLE api_tokens DROP COLUMN remotes');
  }
}
