import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A transition is journalled once: a replica writes each of its moves again after a database outage until the write
 * is known to have landed, and a write that committed just as the connection dropped must not add a second row.
 */
export class TransitionOnce1765000000000 implements MigrationInterface {
  name = 'TransitionOnce1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      DELETE FROM breaker_transitions t USING breaker_transitions earlier
      WHERE t.config_id = earlier.config_id AND t.instance_id = earlier.instance_id AND t.at = earlier.at
        AND t.to_state = earlier.to_state AND t.id > earlier.id`);
    await queryRunner.query('CREATE UNIQUE INDEX breaker_transitions_once ON breaker_transitions (config_id, instance_id, at, to_state)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX breaker_transitions_once');
  }
}
