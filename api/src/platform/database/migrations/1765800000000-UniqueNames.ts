import type { MigrationInterface, QueryRunner } from 'typeorm';

const TABLES = ['circuit_breaker_configs', 'services'] as const;

/**
 * Breakers and services are named uniquely, whatever the letter case, so that a configuration document can key
 * them by name. Existing duplicates keep their first holder's name; the later ones become "name (2)", "name (3)"…
 * at the first suffix nobody holds.
 */
export class UniqueNames1765800000000 implements MigrationInterface {
  name = 'UniqueNames1765800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      await queryRunner.query(`
        DO $$
        DECLARE
          duplicate record;
          suffix integer;
          candidate text;
        BEGIN
          FOR duplicate IN
            SELECT id, name FROM ${table} AS later
            WHERE EXISTS (SELECT 1 FROM ${table} AS earlier WHERE lower(earlier.name) = lower(later.name) AND earlier.id < later.id)
            ORDER BY id
          LOOP
            suffix := 2;
            LOOP
              candidate := duplicate.name || ' (' || suffix || ')';
              EXIT WHEN NOT EXISTS (SELECT 1 FROM ${table} WHERE lower(name) = lower(candidate));
              suffix := suffix + 1;
            END LOOP;
            UPDATE ${table} SET name = candidate WHERE id = duplicate.id;
          END LOOP;
        END $$`);
      await queryRunner.query(`CREATE UNIQUE INDEX ${table}_name_key ON ${table} (lower(name))`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) await queryRunner.query(`DROP INDEX ${table}_name_key`);
  }
}
