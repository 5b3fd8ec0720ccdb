import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The journal's reasons named who used a manual control by e-mail ("forced open by ops@example.com"), and every
 * holder of circuit_breaker_view reads them. They now name the person (see publicName in libs/contracts): rows
 * written before say the account's name too, or "someone" where the account has none or is gone; the e-mail stays
 * in the audit trail only.
 */
export class JournalNamesNotEmails1765300000000 implements MigrationInterface {
  name = 'JournalNamesNotEmails1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE breaker_transitions t
      SET reason = regexp_replace(t.reason, ' by \\S+@\\S+$', '') || ' by ' || COALESCE(
        (SELECT NULLIF(trim(concat_ws(' ', u.first_name, u.last_name)), '')
         FROM users u
         WHERE lower(u.email) = lower(substring(t.reason FROM ' by (\\S+@\\S+)$'))
           AND concat_ws(' ', u.first_name, u.last_name) NOT LIKE '%@%'),
        'someone')
      WHERE t.reason ~ ' by \\S+@\\S+$'`);
  }

  async down(): Promise<void> {
    // the e-mails are not kept here: the audit trail has who used each control
  }
}
