import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Notifications: channels, rules and maintenance windows; an outbox of events; and the deliveries each replica
 * claims by lease.
 *
 * The events are raised by triggers on the breaker journal and on domain alerts, so that every path that journals a
 * move or opens or resolves an alert (a breaker's own move, a manual control, a check, a resolve by hand, an
 * import) writes its event in its own transaction: an event exists exactly when its change was committed, and a
 * journal write repeated after an outage (ON CONFLICT DO NOTHING) raises nothing twice. Each inserted batch of
 * events wakes the replicas through the fan-out channel the bus already listens to.
 */
export class Notifications1765900000000 implements MigrationInterface {
  name = 'Notifications1765900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE notification_channels (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        type text NOT NULL CHECK (type IN ('email', 'webhook', 'slack', 'discord')),
        recipients text[] NOT NULL DEFAULT '{}',
        url_sealed text,
        url_host text,
        secret_sealed text,
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((type = 'email') = (url_sealed IS NULL))
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX notification_channels_name ON notification_channels (lower(name))');

    await queryRunner.query(`
      CREATE TABLE notification_rules (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        events text[] NOT NULL,
        breakers text[] NOT NULL DEFAULT '{}',
        breaker_types text[] NOT NULL DEFAULT '{}',
        domains text[] NOT NULL DEFAULT '{}',
        severities text[] NOT NULL DEFAULT '{}',
        min_interval_minutes integer NOT NULL DEFAULT 5 CHECK (min_interval_minutes BETWEEN 0 AND 1440),
        stuck_open_minutes integer NOT NULL DEFAULT 15 CHECK (stuck_open_minutes BETWEEN 1 AND 1440),
        flapping_openings integer NOT NULL DEFAULT 5 CHECK (flapping_openings BETWEEN 2 AND 1000),
        flapping_minutes integer NOT NULL DEFAULT 10 CHECK (flapping_minutes BETWEEN 1 AND 1440),
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX notification_rules_name ON notification_rules (lower(name))');
    // a rule's channels: deleting a channel takes it out of every rule
    await queryRunner.query(`
      CREATE TABLE notification_rule_channels (
        rule_id uuid NOT NULL REFERENCES notification_rules (id) ON DELETE CASCADE,
        channel_id uuid NOT NULL REFERENCES notification_channels (id) ON DELETE CASCADE,
        PRIMARY KEY (rule_id, channel_id)
      )`);
    await queryRunner.query('CREATE INDEX notification_rule_channels_channel ON notification_rule_channels (channel_id)');

    await queryRunner.query(`
      CREATE TABLE maintenance_windows (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        starts_at timestamptz NOT NULL,
        ends_at timestamptz NOT NULL CHECK (ends_at > starts_at),
        repeat_weekly boolean NOT NULL DEFAULT false,
        breakers text[] NOT NULL DEFAULT '{}',
        domains text[] NOT NULL DEFAULT '{}',
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX maintenance_windows_name ON maintenance_windows (lower(name))');

    // The outbox. rule_id is set on an event only one rule asked for (a breaker stuck open past that rule's minutes);
    // dedupe_key makes such an event, which every replica's sweep may find, exist once.
    await queryRunner.query(`
      CREATE TABLE notification_events (
        id bigserial PRIMARY KEY,
        type text NOT NULL,
        subject_kind text NOT NULL CHECK (subject_kind IN ('breaker', 'domain')),
        subject_id integer NOT NULL,
        subject_name text NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        data jsonb NOT NULL,
        rule_id uuid REFERENCES notification_rules (id) ON DELETE CASCADE,
        dedupe_key text UNIQUE,
        dispatched_at timestamptz
      )`);
    await queryRunner.query('CREATE INDEX notification_events_waiting ON notification_events (id) WHERE dispatched_at IS NULL');
    await queryRunner.query(
      'CREATE INDEX notification_events_subject ON notification_events (subject_kind, subject_id, type, occurred_at)',
    );
    await queryRunner.query('CREATE INDEX notification_events_occurred_at ON notification_events (occurred_at)');

    await queryRunner.query(`
      CREATE TABLE notification_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigserial NOT NULL UNIQUE,
        event_id bigint REFERENCES notification_events (id) ON DELETE SET NULL,
        event_type text NOT NULL,
        subject text NOT NULL,
        subject_kind text,
        occurred_at timestamptz NOT NULL,
        payload jsonb NOT NULL,
        channel_id uuid NOT NULL REFERENCES notification_channels (id) ON DELETE CASCADE,
        rule_id uuid REFERENCES notification_rules (id) ON DELETE SET NULL,
        rule_name text,
        status text NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'failed', 'muted', 'suppressed')),
        attempts integer NOT NULL DEFAULT 0,
        max_attempts integer NOT NULL DEFAULT 8,
        next_attempt_at timestamptz,
        lease_owner uuid,
        lease_until timestamptz,
        status_code integer,
        duration_ms integer,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz
      )`);
    await queryRunner.query(
      "CREATE INDEX notification_deliveries_due ON notification_deliveries (next_attempt_at) WHERE status = 'pending'",
    );
    await queryRunner.query(
      "CREATE INDEX notification_deliveries_leased ON notification_deliveries (lease_until) WHERE status = 'delivering'",
    );
    await queryRunner.query('CREATE INDEX notification_deliveries_channel ON notification_deliveries (channel_id, seq DESC)');
    await queryRunner.query('CREATE INDEX notification_deliveries_created_at ON notification_deliveries (created_at)');

    // when each rule last notified about a subject, per event type: its minimum interval is judged against this
    await queryRunner.query(`
      CREATE TABLE notification_throttle (
        rule_id uuid NOT NULL REFERENCES notification_rules (id) ON DELETE CASCADE,
        subject text NOT NULL,
        event_type text NOT NULL,
        last_at timestamptz NOT NULL,
        PRIMARY KEY (rule_id, subject, event_type)
      )`);

    // Wakes every replica's dispatcher once per statement that added events.
    await queryRunner.query(`
      CREATE FUNCTION notification_events_wake() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('cbh_events', '{"origin":"database","internal":"notifications-due","data":null}');
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER notification_events_wake AFTER INSERT ON notification_events
      FOR EACH STATEMENT EXECUTE FUNCTION notification_events_wake()`);

    // A breaker opens when it leaves CLOSED for OPEN (a trial that fails in HALF_OPEN is the same opening going on),
    // and recovers when it is CLOSED again after being open.
    await queryRunner.query(`
      CREATE FUNCTION breaker_transition_event() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        kind text;
        breaker record;
      BEGIN
        IF NEW.from_state = 'CLOSED' AND NEW.to_state = 'OPEN' THEN kind := 'breaker.opened';
        ELSIF NEW.to_state = 'CLOSED' AND NEW.from_state IN ('OPEN', 'HALF_OPEN') THEN kind := 'breaker.recovered';
        ELSE RETURN NULL;
        END IF;
        SELECT id, name, type INTO breaker FROM circuit_breaker_configs WHERE id = NEW.config_id;
        IF NOT FOUND THEN RETURN NULL; END IF;
        INSERT INTO notification_events (type, subject_kind, subject_id, subject_name, occurred_at, data)
        VALUES (kind, 'breaker', breaker.id, breaker.name, NEW.at, jsonb_build_object(
          'breaker', jsonb_build_object('id', breaker.id, 'name', breaker.name, 'type', breaker.type),
          'from', NEW.from_state, 'to', NEW.to_state, 'reason', NEW.reason));
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER breaker_transition_event AFTER INSERT ON breaker_transitions
      FOR EACH ROW EXECUTE FUNCTION breaker_transition_event()`);

    await queryRunner.query(`
      CREATE FUNCTION domain_alert_event() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        kind text;
        domain_name text;
      BEGIN
        IF TG_OP = 'INSERT' AND NEW.status = 'open' THEN kind := 'domain.alert.opened';
        ELSIF TG_OP = 'UPDATE' AND OLD.status = 'open' AND NEW.status = 'resolved' THEN kind := 'domain.alert.resolved';
        ELSE RETURN NULL;
        END IF;
        SELECT domain INTO domain_name FROM domains WHERE id = NEW.domain_id;
        IF NOT FOUND THEN RETURN NULL; END IF;
        INSERT INTO notification_events (type, subject_kind, subject_id, subject_name, occurred_at, data)
        VALUES (kind, 'domain', NEW.domain_id, domain_name,
          CASE WHEN kind = 'domain.alert.opened' THEN NEW.triggered_at ELSE coalesce(NEW.resolved_at, now()) END,
          jsonb_build_object(
            'domain', jsonb_build_object('id', NEW.domain_id, 'name', domain_name),
            'alert', jsonb_build_object('id', NEW.id, 'type', NEW.alert_type, 'severity', NEW.severity,
              'message', NEW.message, 'status', NEW.status)));
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER domain_alert_event AFTER INSERT OR UPDATE OF status ON domain_alerts
      FOR EACH ROW EXECUTE FUNCTION domain_alert_event()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TRIGGER domain_alert_event ON domain_alerts');
    await queryRunner.query('DROP FUNCTION domain_alert_event()');
    await queryRunner.query('DROP TRIGGER breaker_transition_event ON breaker_transitions');
    await queryRunner.query('DROP FUNCTION breaker_transition_event()');
    await queryRunner.query('DROP TABLE notification_throttle');
    await queryRunner.query('DROP TABLE notification_deliveries');
    await queryRunner.query('DROP TABLE notification_events');
    await queryRunner.query('DROP FUNCTION notification_events_wake()');
    await queryRunner.query('DROP TABLE maintenance_windows');
    await queryRunner.query('DROP TABLE notification_rule_channels');
    await queryRunner.query('DROP TABLE notification_rules');
    await queryRunner.query('DROP TABLE notification_channels');
  }
}
