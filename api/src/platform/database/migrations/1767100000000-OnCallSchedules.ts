import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * On-call schedules: rotations of people and overrides, in the schedule's own time zone (wall-clock times, so a DST
 * change never moves a hand-over). Names are unique whatever their letter case, as the configuration document keys them.
 * Escalation policies (who is told, step by step), and each person's secret calendar address of their own shifts.
 */
export class OnCallSchedules1767100000000 implements MigrationInterface {
  name = 'OnCallSchedules1767100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE on_call_schedules (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        time_zone text NOT NULL,
        rotations jsonb NOT NULL DEFAULT '[]',
        overrides jsonb NOT NULL DEFAULT '[]',
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX on_call_schedules_name ON on_call_schedules (lower(name))');
    // who is told, step by step, while an alert group fires: steps as the body names them (channels, people, a schedule)
    await queryRunner.query(`
      CREATE TABLE escalation_policies (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        steps jsonb NOT NULL,
        repeat integer NOT NULL DEFAULT 0 CHECK (repeat BETWEEN 0 AND 5),
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX escalation_policies_name ON escalation_policies (lower(name))');
    // a person's calendar of their own shifts: one secret address each, kept as its hash, revoked by replacing it
    await queryRunner.query(`
      CREATE TABLE on_call_feeds (
        user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE on_call_feeds');
    await queryRunner.query('DROP TABLE escalation_policies');
    await queryRunner.query('DROP TABLE on_call_schedules');
  }
}
