import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A scrape target remembers the breakers it stopped exposing (since when, and for how many good scrapes), so that
 * they age out of the hub (see scrape/scraped-breakers.ts) instead of holding its service's breaker limit for ever.
 */
export class ScrapedBreakerAgeOut1766600000000 implements MigrationInterface {
  name = 'ScrapedBreakerAgeOut1766600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE scrape_targets ADD COLUMN absent jsonb');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE scrape_targets DROP COLUMN absent');
  }
}
