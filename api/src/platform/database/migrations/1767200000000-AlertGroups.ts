import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert groups: what a notification rule naming an escalation policy opens for a subject (a breaker, a domain, a
 * release), joined by the subject's later events and by the events of subjects depending on it; one open group per
 * subject (a partial unique index, so two replicas fanning out at once cannot open two). The escalation's next step
 * and its time are stored on the group and claimed by one replica with row locks (the step's deliveries are written
 * in the same transaction, so a step fires exactly once whatever replica dies when). Each person's contact methods,
 * what each breaker depends on, and the rule's policy and the delivery's group on the notification tables.
 */
export class AlertGroups1767200000000 implements MigrationInterface {
  name = 'AlertGroups1767200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE alert_groups (
        id serial PRIMARY KEY,
        subject_kind text NOT NULL CHECK (subject_kind IN ('breaker', 'domain', 'slo', 'remote')),
        subject_id integer NOT NULL,
        subject_name text NOT NULL,
        service text,
        title text NOT NULL,
        state text NOT NULL CHECK (state IN ('firing', 'acknowledged', 'silenced', 'resolved')),
        escalation_policy_id uuid REFERENCES escalation_policies (id) ON DELETE SET NULL,
        rule_id uuid,
        opening_type text NOT NULL,
        opening_data jsonb NOT NULL,
        next_step integer NOT NULL DEFAULT 0,
        next_step_at timestamptz,
        event_count integer NOT NULL DEFAULT 1,
        caused_count integer NOT NULL DEFAULT 0,
        opened_at timestamptz NOT NULL DEFAULT now(),
        acknowledged_at timestamptz,
        acknowledged_by text,
        resolved_at timestamptz,
        resolved_by text,
        silenced_until timestamptz
      )`);
    await queryRunner.query(
      "CREATE UNIQUE INDEX alert_groups_one_open ON alert_groups (subject_kind, subject_id) WHERE state <> 'resolved'",
    );
    await queryRunner.query('CREATE INDEX alert_groups_due ON alert_groups (next_step_at) WHERE next_step_at IS NOT NULL');
    await queryRunner.query('CREATE INDEX alert_groups_state ON alert_groups (state, id)');
    await queryRunner.query('CREATE INDEX alert_groups_opened ON alert_groups (opened_at)');
    await queryRunner.query(`
      CREATE TABLE alert_group_entries (
        id bigserial PRIMARY KEY,
        group_id integer NOT NULL REFERENCES alert_groups (id) ON DELETE CASCADE,
        at timestamptz NOT NULL DEFAULT now(),
        kind text NOT NULL,
        text text NOT NULL,
        event_type text,
        step integer,
        actor text,
        subject jsonb
      )`);
    await queryRunner.query('CREATE INDEX alert_group_entries_group ON alert_group_entries (group_id, id)');
    // a personal channel: its URL sealed as a channel's is (it holds the credentials)
    await queryRunner.query(`
      CREATE TABLE contact_methods (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('slack', 'discord', 'webhook')),
        label text NOT NULL,
        url_sealed text NOT NULL,
        url_host text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX contact_methods_user ON contact_methods (user_id)');
    await queryRunner.query(`
      CREATE TABLE breaker_dependencies (
        breaker_id integer NOT NULL REFERENCES circuit_breaker_configs (id) ON DELETE CASCADE,
        parent_kind text NOT NULL CHECK (parent_kind IN ('domain', 'breaker', 'service')),
        parent_key text NOT NULL,
        PRIMARY KEY (breaker_id, parent_kind, parent_key)
      )`);
    await queryRunner.query('CREATE INDEX breaker_dependencies_parent ON breaker_dependencies (parent_kind, parent_key)');
    // the API refuses to delete a policy a rule names (409); a configuration import that prunes one and points the
    // rule elsewhere in the same transaction relies on SET NULL between the two steps
    await queryRunner.query(
      'ALTER TABLE notification_rules ADD COLUMN escalation_policy_id uuid REFERENCES escalation_policies (id) ON DELETE SET NULL',
    );
    await queryRunner.query('ALTER TABLE notification_deliveries ADD COLUMN alert_group_id integer, ADD COLUMN step integer');
    // a group's own events (acknowledged, escalated, resolved) are about the group
    await queryRunner.query('ALTER TABLE notification_events DROP CONSTRAINT notification_events_subject_kind_check');
    await queryRunner.query(
      "ALTER TABLE notification_events ADD CONSTRAINT notification_events_subject_kind_check CHECK (subject_kind IN ('breaker', 'domain', 'remote', 'status_page', 'alert_group'))",
    );
    await queryRunner.query(
      'CREATE INDEX notification_deliveries_alert_group ON notification_deliveries (alert_group_id) WHERE alert_group_id IS NOT NULL',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM notification_events WHERE subject_kind = 'alert_group'");
    await queryRunner.query('ALTER TABLE notification_events DROP CONSTRAINT notification_events_subject_kind_check');
    await queryRunner.query(
      "ALTER TABLE notification_events ADD CONSTRAINT notification_events_subject_kind_check CHECK (subject_kind IN ('breaker', 'domain', 'remote', 'status_page'))",
    );
    await queryRunner.query('ALTER TABLE notification_deliveries DROP COLUMN alert_group_id, DROP COLUMN step');
    await queryRunner.query('ALTER TABLE notification_rules DROP COLUMN escalation_policy_id');
    await queryRunner.query('DROP TABLE breaker_dependencies');
    await queryRunner.query('DROP TABLE contact_methods');
    await queryRunner.query('DROP TABLE alert_group_entries');
    await queryRunner.query('DROP TABLE alert_groups');
  }
}
