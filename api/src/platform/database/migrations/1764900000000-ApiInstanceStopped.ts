import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A replica that shut down in order says so: it stops counting as live at once, not after its heartbeat lapses. */
export class ApiInstanceStopped1764900000000 implements MigrationInterface {
  name = 'ApiInstanceStopped1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE api_instances ADD COLUMN stopped_at timestamptz');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE api_instances DROP COLUMN stopped_at');
  }
}
