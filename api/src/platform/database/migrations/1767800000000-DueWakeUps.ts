import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables whose rows fall due, the column that says when, and the message that wakes every replica's runner. */
const DUE = [
  { table: 'scrape_targets', column: 'next_run_at', internal: 'scrape-targets-due' },
  { table: 'domains', column: 'next_check_at', internal: 'domains-due' },
  { table: 'alert_groups', column: 'next_step_at', internal: 'escalations-due' },
] as const;

/**
 * Replicas sleep until the work they know of falls due (PeriodicWork.whenDue) instead of asking every second. A row
 * made, or moved to fall due sooner than it was or at all (a new URL scraped at once, a domain checked now, an alert
 * group un-acknowledged), wakes every replica over the bus when its transaction commits: the database sends it,
 * whichever code wrote the row (an import, the API, an operator's SQL). PostgreSQL delivers one notification for
 * identical payloads of one transaction, so a thousand domains imported together wake each replica once. A round's
 * end, which moves the row later, sends nothing.
 */
export class DueWakeUps1767800000000 implements MigrationInterface {
  name = 'DueWakeUps1767800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const { table, column, internal } of DUE) {
      await queryRunner.query(`
        CREATE FUNCTION ${table}_due_wake() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify('cbh_events', '{"origin":"database","internal":"${internal}","data":null}');
          RETURN NULL;
        END $$`);
      await queryRunner.query(
        `CREATE TRIGGER ${table}_due_wake_new AFTER INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${table}_due_wake()`,
      );
      await queryRunner.query(`
        CREATE TRIGGER ${table}_due_wake_sooner AFTER UPDATE OF ${column} ON ${table} FOR EACH ROW
        WHEN (NEW.${column} < OLD.${column} OR (OLD.${column} IS NULL AND NEW.${column} IS NOT NULL))
        EXECUTE FUNCTION ${table}_due_wake()`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const { table } of DUE) {
      await queryRunner.query(`DROP TRIGGER ${table}_due_wake_sooner ON ${table}`);
      await queryRunner.query(`DROP TRIGGER ${table}_due_wake_new ON ${table}`);
      await queryRunner.query(`DROP FUNCTION ${table}_due_wake()`);
    }
  }
}
