import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Remote releases in the database every replica reads: each remote build uploaded as an immutable version, its files
 * stored once by content (a chunk unchanged between two builds is one row), and which version of each remote is
 * live. The bytes are in PostgreSQL so that every replica serves the same ones, with no shared disk.
 */
export class RemoteReleases1766100000000 implements MigrationInterface {
  name = 'RemoteReleases1766100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE remote_files (
        sha256 text PRIMARY KEY,
        content bytea NOT NULL,
        size integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE remote_versions (
        id serial PRIMARY KEY,
        remote text NOT NULL,
        git_commit text,
        uploaded_by uuid REFERENCES users (id) ON DELETE SET NULL,
        uploaded_at timestamptz NOT NULL DEFAULT now(),
        files jsonb NOT NULL,
        bytes bigint NOT NULL,
        entry_gzip_bytes integer NOT NULL,
        report jsonb NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX remote_versions_remote ON remote_versions (remote, id DESC)');
    await queryRunner.query(`
      CREATE TABLE remote_releases (
        remote text PRIMARY KEY,
        live_version_id integer REFERENCES remote_versions (id),
        previous_version_id integer REFERENCES remote_versions (id),
        canary_version_id integer REFERENCES remote_versions (id),
        canary_percent integer NOT NULL DEFAULT 0 CHECK (canary_percent BETWEEN 0 AND 100),
        canary_started_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now(),
        updated_by uuid REFERENCES users (id) ON DELETE SET NULL
      )`);
    // each load of a remote a page reports: what the release screen shows, and what rolls a failing canary back
    await queryRunner.query(`
      CREATE TABLE remote_loads (
        id bigserial PRIMARY KEY,
        remote text NOT NULL,
        version_id integer REFERENCES remote_versions (id) ON DELETE CASCADE,
        ok boolean NOT NULL,
        reason text,
        load_ms integer,
        visitor text,
        at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX remote_loads_version ON remote_loads (version_id, at)');
    await queryRunner.query('CREATE INDEX remote_loads_at ON remote_loads (at)');
    // a release event is about a remote (release.rolled_back)
    await queryRunner.query('ALTER TABLE notification_events DROP CONSTRAINT notification_events_subject_kind_check');
    await queryRunner.query(
      "ALTER TABLE notification_events ADD CONSTRAINT notification_events_subject_kind_check CHECK (subject_kind IN ('breaker', 'domain', 'remote'))",
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM notification_events WHERE subject_kind = 'remote'");
    await queryRunner.query('ALTER TABLE notification_events DROP CONSTRAINT notification_events_subject_kind_check');
    await queryRunner.query(
      "ALTER TABLE notification_events ADD CONSTRAINT notification_events_subject_kind_check CHECK (subject_kind IN ('breaker', 'domain'))",
    );
    await queryRunner.query('DROP TABLE remote_loads');
    await queryRunner.query('DROP TABLE remote_releases');
    await queryRunner.query('DROP TABLE remote_versions');
    await queryRunner.query('DROP TABLE remote_files');
  }
}
