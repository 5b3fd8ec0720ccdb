import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Status pages: pages and their components (each naming breakers and domains by id), one row per change of a
 * component's state (what the 90 daily bars are computed from), incidents with their updates, and e-mail
 * subscriptions. Notification events gain the subject kind `status_page` (incident events); deliveries gain an
 * audience other than a channel (a page's subscribers), addressed by `recipient`.
 */
export class StatusPages1767000000000 implements MigrationInterface {
  name = 'StatusPages1767000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE status_pages (
        id serial PRIMARY KEY,
        slug text NOT NULL UNIQUE,
        title text NOT NULL,
        description text,
        public boolean NOT NULL DEFAULT false,
        accent_color text,
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE status_components (
        id serial PRIMARY KEY,
        page_id integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        position integer NOT NULL,
        name text NOT NULL,
        description text,
        group_name text,
        breaker_ids integer[] NOT NULL DEFAULT '{}',
        domain_ids integer[] NOT NULL DEFAULT '{}',
        state text NOT NULL DEFAULT 'operational',
        state_since timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX status_components_page ON status_components (page_id, position)');
    await queryRunner.query(`
      CREATE TABLE status_component_changes (
        id bigserial PRIMARY KEY,
        component_id integer NOT NULL REFERENCES status_components (id) ON DELETE CASCADE,
        state text NOT NULL,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX status_component_changes_component ON status_component_changes (component_id, at)');
    await queryRunner.query(`
      CREATE TABLE status_incidents (
        id serial PRIMARY KEY,
        page_id integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        title text NOT NULL,
        impact text NOT NULL CHECK (impact IN ('none', 'minor', 'major', 'critical')),
        status text NOT NULL CHECK (status IN ('investigating', 'identified', 'monitoring', 'resolved')),
        components jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT now(),
        resolved_at timestamptz
      )`);
    await queryRunner.query('CREATE INDEX status_incidents_page ON status_incidents (page_id, id DESC)');
    await queryRunner.query('CREATE INDEX status_incidents_open ON status_incidents (page_id) WHERE resolved_at IS NULL');
    await queryRunner.query(`
      CREATE TABLE status_incident_updates (
        id serial PRIMARY KEY,
        incident_id integer NOT NULL REFERENCES status_incidents (id) ON DELETE CASCADE,
        status text NOT NULL,
        message text NOT NULL,
        author text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX status_incident_updates_incident ON status_incident_updates (incident_id, id)');
    await queryRunner.query(`
      CREATE TABLE status_subscriptions (
        id serial PRIMARY KEY,
        page_id integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        email text NOT NULL,
        components integer[] NOT NULL DEFAULT '{}',
        confirmed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (page_id, email)
      )`);
    // a subscription request per address and per client is counted here, so every replica counts alike
    await queryRunner.query(`
      CREATE TABLE status_subscription_requests (
        key text NOT NULL,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX status_subscription_requests_key ON status_subscription_requests (key, at)');

    await queryRunner.query('ALTER TABLE notification_events DROP CONSTRAINT notification_events_subject_kind_check');
    await queryRunner.query(
      "ALTER TABLE notification_events ADD CONSTRAINT notification_events_subject_kind_check CHECK (subject_kind IN ('breaker', 'domain', 'remote', 'status_page'))",
    );
    await queryRunner.query(`
      ALTER TABLE notification_deliveries
        ALTER COLUMN channel_id DROP NOT NULL,
        ADD COLUMN audience text,
        ADD COLUMN recipient text,
        ADD CONSTRAINT notification_deliveries_addressed CHECK ((channel_id IS NULL) = (audience IS NOT NULL AND recipient IS NOT NULL))`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DELETE FROM notification_deliveries WHERE channel_id IS NULL');
    await queryRunner.query(`
      ALTER TABLE notification_deliveries
        DROP CONSTRAINT notification_deliveries_addressed,
        DROP COLUMN recipient,
        DROP COLUMN audience,
        ALTER COLUMN channel_id SET NOT NULL`);
    await queryRunner.query("DELETE FROM notification_events WHERE subject_kind = 'status_page'");
    await queryRunner.query('ALTER TABLE notification_events DROP CONSTRAINT notification_events_subject_kind_check');
    await queryRunner.query(
      "ALTER TABLE notification_events ADD CONSTRAINT notification_events_subject_kind_check CHECK (subject_kind IN ('breaker', 'domain', 'remote'))",
    );
    for (const table of [
      'status_subscription_requests',
      'status_subscriptions',
      'status_incident_updates',
      'status_incidents',
      'status_component_changes',
      'status_components',
      'status_pages',
    ]) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
