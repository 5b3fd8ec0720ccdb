import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A digest of what the domain screens show of a domain beyond its latest check (status, registration,
 * certificate, DNS records, subdomains), so that a round tells the screens to reread everything only when it
 * changed; a round that only added a check is announced with the others of its second.
 */
export class DomainShownDigest1764600000000 implements MigrationInterface {
  name = 'DomainShownDigest1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE domains ADD COLUMN shown_digest text');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE domains DROP COLUMN shown_digest');
  }
}
