import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saved drills: a drill's name, steps and expectations kept to run again (POST /api/drill-definitions/{id}/run) and
 * to move between hubs in the configuration document. Their breakers are stored by name — a hub breaker's name, a
 * service's as { service, name } — never by id, since ids differ between hubs; names are unique whatever their case.
 */
export class DrillDefinitions1767600000000 implements MigrationInterface {
  name = 'DrillDefinitions1767600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE drill_definitions (
        id serial PRIMARY KEY,
        name text NOT NULL,
        steps jsonb NOT NULL,
        expectations jsonb NOT NULL DEFAULT '[]',
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX drill_definitions_name ON drill_definitions (lower(name))');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE drill_definitions');
  }
}
