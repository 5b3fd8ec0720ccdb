import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Breakers that run in other services beside the hub's own:
 * - a configuration row says where a breaker lives (`source`: hub, agent or scrape), for which service, in which
 *   library and with which settings in the library's words; `library_settings` are those the hub set and pushes to
 *   every instance, and `revision` / `reset_revision` (from one sequence) order the controls the agents apply (see
 *   AgentBreakerControl);
 * - names are unique per source and service: two services may each have their own "payments";
 * - breaker_instances holds each instance's last reporting periods: figures only, rebuilt by the next reports, so
 *   the table is unlogged (no write-ahead log for a few thousand rows rewritten every second);
 * - the journal names the service instance a reported move happened on;
 * - scrape_targets lists the Prometheus endpoints the hub reads resilience4j breakers from, leased one replica at a
 *   time like the domain checks.
 */
/**
 * The breaker events' payload names the service and instance of an agent's or scraped breaker. One opening of a
 * service's breaker is reported by each of its instances (and journalled once more when an operator forced it): a
 * move an instance reported raises an event only if none of its kind was raised for the breaker in the minute before,
 * so ten instances opening together are one breaker.opened, not ten (nor a flapping breaker).
 */
const breakerEvent = (withService: boolean) => `
  CREATE OR REPLACE FUNCTION breaker_transition_event() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    kind text;
    breaker record;
  BEGIN
    IF NEW.from_state = 'CLOSED' AND NEW.to_state = 'OPEN' THEN kind := 'breaker.opened';
    ELSIF NEW.to_state = 'CLOSED' AND NEW.from_state IN ('OPEN', 'HALF_OPEN') THEN kind := 'breaker.recovered';
    ELSE RETURN NULL;
    END IF;
    SELECT * INTO breaker FROM circuit_breaker_configs WHERE id = NEW.config_id;
    IF NOT FOUND THEN RETURN NULL; END IF;${
      withService
        ? `
    IF NEW.service_instance IS NOT NULL AND EXISTS (
      SELECT 1 FROM notification_events e
      WHERE e.subject_kind = 'breaker' AND e.subject_id = breaker.id AND e.type = kind
        AND e.occurred_at > NEW.at - interval '1 minute' AND e.occurred_at <= NEW.at + interval '1 minute'
    ) THEN RETURN NULL; END IF;`
        : ''
    }
    INSERT INTO notification_events (type, subject_kind, subject_id, subject_name, occurred_at, data)
    VALUES (kind, 'breaker', breaker.id, breaker.name, NEW.at, jsonb_build_object(
      'breaker', jsonb_build_object('id', breaker.id, 'name', breaker.name, 'type', breaker.type${
        withService ? ", 'source', breaker.source, 'service', breaker.service" : ''
      }),
      'from', NEW.from_state, 'to', NEW.to_state, 'reason', NEW.reason${withService ? ", 'instance', NEW.service_instance" : ''}));
    RETURN NULL;
  END $$`;

export class ExternalBreakers1766000000000 implements MigrationInterface {
  name = 'ExternalBreakers1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE circuit_breaker_configs
        ADD COLUMN source text NOT NULL DEFAULT 'hub' CHECK (source IN ('hub', 'agent', 'scrape')),
        ADD COLUMN service text,
        ADD COLUMN library text,
        ADD COLUMN library_type text,
        ADD COLUMN reported_settings jsonb,
        ADD COLUMN library_settings jsonb,
        ADD COLUMN revision integer NOT NULL DEFAULT 0,
        ADD COLUMN reset_revision integer NOT NULL DEFAULT 0,
        ADD CONSTRAINT circuit_breaker_configs_service CHECK ((source = 'hub') = (service IS NULL))`);
    // one sequence for every breaker's control revisions: a breaker deleted and reported again never goes back to a
    // revision its instances applied already
    await queryRunner.query('CREATE SEQUENCE breaker_control_revision AS integer');
    await queryRunner.query('DROP INDEX circuit_breaker_configs_name_key');
    await queryRunner.query(
      `CREATE UNIQUE INDEX circuit_breaker_configs_name_key ON circuit_breaker_configs (source, coalesce(service, ''), lower(name))`,
    );
    await queryRunner.query(`
      CREATE UNLOGGED TABLE breaker_instances (
        config_id integer NOT NULL REFERENCES circuit_breaker_configs (id) ON DELETE CASCADE,
        instance text NOT NULL,
        state text NOT NULL,
        override text NOT NULL,
        reported_at timestamptz NOT NULL,
        period_ms integer NOT NULL,
        last_move_at timestamptz,
        periods jsonb NOT NULL,
        PRIMARY KEY (config_id, instance)
      )`);
    await queryRunner.query('CREATE INDEX breaker_instances_reported_at ON breaker_instances (reported_at)');
    await queryRunner.query('ALTER TABLE breaker_transitions ADD COLUMN service_instance text');
    await queryRunner.query(breakerEvent(true));
    await queryRunner.query(`
      CREATE TABLE scrape_targets (
        id serial PRIMARY KEY,
        name text NOT NULL,
        url text NOT NULL,
        interval_seconds integer NOT NULL CHECK (interval_seconds BETWEEN 5 AND 3600),
        bearer_token_sealed text,
        next_run_at timestamptz NOT NULL DEFAULT now(),
        lease_owner uuid,
        lease_until timestamptz,
        last_scrape_at timestamptz,
        last_error text,
        last_breakers integer,
        counters jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX scrape_targets_name_key ON scrape_targets (lower(name))');
    await queryRunner.query('CREATE INDEX scrape_targets_due ON scrape_targets (next_run_at)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE scrape_targets');
    await queryRunner.query(breakerEvent(false));
    await queryRunner.query('ALTER TABLE breaker_transitions DROP COLUMN service_instance');
    await queryRunner.query('DROP TABLE breaker_instances');
    await queryRunner.query("DELETE FROM circuit_breaker_configs WHERE source <> 'hub'");
    await queryRunner.query('DROP SEQUENCE breaker_control_revision');
    await queryRunner.query('DROP INDEX circuit_breaker_configs_name_key');
    await queryRunner.query('CREATE UNIQUE INDEX circuit_breaker_configs_name_key ON circuit_breaker_configs (lower(name))');
    await queryRunner.query(`
      ALTER TABLE circuit_breaker_configs
        DROP CONSTRAINT circuit_breaker_configs_service,
        DROP COLUMN source, DROP COLUMN service, DROP COLUMN library, DROP COLUMN library_type,
        DROP COLUMN reported_settings, DROP COLUMN library_settings, DROP COLUMN revision, DROP COLUMN reset_revision`);
  }
}
