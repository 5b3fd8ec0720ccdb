import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Failed sign-ins, counted in the database so that the limit holds across replicas and restarts. */
export class SignInAttempts1764800000000 implements MigrationInterface {
  name = 'SignInAttempts1764800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE sign_in_attempts (
        id bigserial PRIMARY KEY,
        key_hash text NOT NULL,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX sign_in_attempts_key_at ON sign_in_attempts (key_hash, at)');
    // for clearing out what left the window
    await queryRunner.query('CREATE INDEX sign_in_attempts_at ON sign_in_attempts (at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE sign_in_attempts');
  }
}
