import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * External identities bound to accounts: an OpenID Connect sign-in is the account its (issuer, subject) was bound
 * to, never whichever account shares its e-mail. An account may hold several; deleting the account drops them.
 */
export class UserIdentities1765100000000 implements MigrationInterface {
  name = 'UserIdentities1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE user_identities (
        issuer text NOT NULL,
        subject text NOT NULL,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (issuer, subject)
      )`);
    await queryRunner.query('CREATE INDEX user_identities_user_id ON user_identities (user_id)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE user_identities');
  }
}
