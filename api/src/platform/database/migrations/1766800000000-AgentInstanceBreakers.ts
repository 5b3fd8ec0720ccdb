import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each agent instance's breakers, the most it reported within the hour: the rows it may hold. A service's instance
 * rows are bounded by their sum, checked whenever an instance would add rows (new, or with more breakers than it had),
 * so instances admitted small cannot grow past the bound, nor first reports taken at once pass it together.
 */
export class AgentInstanceBreakers1766800000000 implements MigrationInterface {
  name = 'AgentInstanceBreakers1766800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE agent_instances ADD COLUMN breakers integer NOT NULL DEFAULT 0');
    // the instances heard before hold the rows they wrote
    await queryRunner.query(`
      UPDATE agent_instances a SET breakers = r.n
      FROM (
        SELECT c.service, b.instance, count(*)::int AS n
        FROM breaker_instances b JOIN circuit_breaker_configs c ON c.id = b.config_id
        WHERE c.source = 'agent' GROUP BY c.service, b.instance
      ) r
      WHERE r.service = a.service AND r.instance = a.instance`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE agent_instances DROP COLUMN breakers');
  }
}
