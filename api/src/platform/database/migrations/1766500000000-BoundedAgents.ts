import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What one service's agents may cost the hub, and what their moves may raise:
 * - agent_instances: the instances of each service heard within the last hour, so that a service renaming its
 *   instances cannot make rows without bound (a new one past AGENT_PROTOCOL_LIMITS.instancesPerService is refused);
 * - agent_report_ids: the ids of the reports taken lately, so that a retried report is counted once (unlogged: a
 *   crash forgets at most a few retries' worth);
 * - agent_report_usage: the reports of each service account per minute, on every replica together;
 * - service_minute_counts: each service's journalled moves and raised events per minute (the caps);
 * - breaker_instances.written_by: the transaction that last wrote a row, so that a replica reads only the rows
 *   written since its last read (every transaction its last read could not see has an id at or past that read's
 *   snapshot horizon);
 * - notification_events.received_at: when the hub took the event, which a rule's minimum interval is judged on (a
 *   move's own time is the agent's to say).
 */
/** SERVICE_EVENTS_PER_MINUTE and STALE_MOVE_MINUTES of @cbh/contracts, as this migration wrote them. */
const EVENTS_PER_MINUTE = 20;
const STALE_MOVE_MINUTES = 5;

/**
 * A breaker's opening or recovery raises an event. A move an agent or a scrape reported (it has its instance):
 * - raises nothing when it happened more than STALE_MOVE_MINUTES before the hub received it (it is journalled);
 * - raises nothing when an event of its kind was raised for the breaker in the minute around it (ten instances
 *   opening together are one breaker.opened);
 * - counts against its service's EVENTS_PER_MINUTE of this minute: the first move past it raises one
 *   breaker.events_capped instead, and the minute's later moves raise nothing.
 */
const breakerEvent = (bounded: boolean) => `
  CREATE OR REPLACE FUNCTION breaker_transition_event() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    kind text;
    breaker record;
    raised integer;
  BEGIN
    IF NEW.from_state = 'CLOSED' AND NEW.to_state = 'OPEN' THEN kind := 'breaker.opened';
    ELSIF NEW.to_state = 'CLOSED' AND NEW.from_state IN ('OPEN', 'HALF_OPEN') THEN kind := 'breaker.recovered';
    ELSE RETURN NULL;
    END IF;
    SELECT * INTO breaker FROM circuit_breaker_configs WHERE id = NEW.config_id;
    IF NOT FOUND THEN RETURN NULL; END IF;
    IF NEW.service_instance IS NOT NULL THEN${
      bounded ? `\n      IF NEW.at < now() - interval '${STALE_MOVE_MINUTES} minutes' THEN RETURN NULL; END IF;` : ''
    }
      IF EXISTS (
        SELECT 1 FROM notification_events e
        WHERE e.subject_kind = 'breaker' AND e.subject_id = breaker.id AND e.type = kind
          AND e.occurred_at > NEW.at - interval '1 minute' AND e.occurred_at <= NEW.at + interval '1 minute'
      ) THEN RETURN NULL; END IF;${
        bounded
          ? `
      INSERT INTO service_minute_counts AS m (source, service, minute, events)
      VALUES (breaker.source, coalesce(breaker.service, ''), date_trunc('minute', now()), 1)
      ON CONFLICT (source, service, minute) DO UPDATE SET events = m.events + 1
      RETURNING m.events INTO raised;
      IF raised > ${EVENTS_PER_MINUTE} THEN
        IF raised = ${EVENTS_PER_MINUTE + 1} THEN
          INSERT INTO notification_events (type, subject_kind, subject_id, subject_name, occurred_at, data)
          VALUES ('breaker.events_capped', 'breaker', breaker.id, breaker.name, now(), jsonb_build_object(
            'breaker', jsonb_build_object('id', breaker.id, 'name', breaker.name, 'type', breaker.type,
              'source', breaker.source, 'service', breaker.service),
            'instance', NEW.service_instance, 'limit', ${EVENTS_PER_MINUTE},
            'minute', to_char(date_trunc('minute', now()) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')));
        END IF;
        RETURN NULL;
      END IF;`
          : ''
      }
    END IF;
    INSERT INTO notification_events (type, subject_kind, subject_id, subject_name, occurred_at, data)
    VALUES (kind, 'breaker', breaker.id, breaker.name, NEW.at, jsonb_build_object(
      'breaker', jsonb_build_object('id', breaker.id, 'name', breaker.name, 'type', breaker.type, 'source', breaker.source, 'service', breaker.service),
      'from', NEW.from_state, 'to', NEW.to_state, 'reason', NEW.reason, 'instance', NEW.service_instance));
    RETURN NULL;
  END $$`;

export class BoundedAgents1766500000000 implements MigrationInterface {
  name = 'BoundedAgents1766500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE agent_instances (
        service text NOT NULL,
        instance text NOT NULL,
        last_seen timestamptz NOT NULL,
        PRIMARY KEY (service, instance)
      )`);
    await queryRunner.query('CREATE INDEX agent_instances_last_seen ON agent_instances (last_seen)');
    await queryRunner.query(`
      CREATE UNLOGGED TABLE agent_report_ids (
        service text NOT NULL,
        report_id text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (service, report_id)
      )`);
    await queryRunner.query('CREATE INDEX agent_report_ids_received_at ON agent_report_ids (received_at)');
    await queryRunner.query(`
      CREATE TABLE agent_report_usage (
        account_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        window_start timestamptz NOT NULL,
        reports integer NOT NULL,
        PRIMARY KEY (account_id, window_start)
      )`);
    await queryRunner.query(`
      CREATE TABLE service_minute_counts (
        source text NOT NULL,
        service text NOT NULL,
        minute timestamptz NOT NULL,
        moves integer NOT NULL DEFAULT 0,
        events integer NOT NULL DEFAULT 0,
        PRIMARY KEY (source, service, minute)
      )`);
    await queryRunner.query('CREATE INDEX service_minute_counts_minute ON service_minute_counts (minute)');
    await queryRunner.query('ALTER TABLE breaker_instances ADD COLUMN written_by bigint NOT NULL DEFAULT txid_current()');
    await queryRunner.query('CREATE INDEX breaker_instances_written_by ON breaker_instances (written_by)');
    await queryRunner.query('ALTER TABLE notification_events ADD COLUMN received_at timestamptz NOT NULL DEFAULT now()');
    await queryRunner.query(breakerEvent(true));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(breakerEvent(false));
    await queryRunner.query('ALTER TABLE notification_events DROP COLUMN received_at');
    await queryRunner.query('ALTER TABLE breaker_instances DROP COLUMN written_by');
    await queryRunner.query('DROP TABLE service_minute_counts');
    await queryRunner.query('DROP TABLE agent_report_usage');
    await queryRunner.query('DROP TABLE agent_report_ids');
    await queryRunner.query('DROP TABLE agent_instances');
  }
}
