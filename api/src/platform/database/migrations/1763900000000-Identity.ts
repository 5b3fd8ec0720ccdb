import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Users, organizations, sessions, invitations, the audit trail and the mail outbox. */
export class Identity1763900000000 implements MigrationInterface {
  name = 'Identity1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('viewer', 'operator', 'admin', 'super_admin')),
        first_name text,
        last_name text,
        profile_image_url text,
        permissions text[] NOT NULL DEFAULT '{}',
        is_active boolean NOT NULL DEFAULT false,
        activated_at timestamptz,
        last_login_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        password_hash text,
        organization_id uuid REFERENCES organizations (id) ON DELETE SET NULL
      )`);
    await queryRunner.query('CREATE UNIQUE INDEX users_email_unique ON users (lower(email))');
    await queryRunner.query(`
      CREATE TABLE sessions (
        sid text PRIMARY KEY,
        user_id uuid REFERENCES users (id) ON DELETE CASCADE,
        data jsonb NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await queryRunner.query('CREATE INDEX sessions_user_id ON sessions (user_id)');
    await queryRunner.query('CREATE INDEX sessions_expires_at ON sessions (expires_at)');
    await queryRunner.query(`
      CREATE TABLE invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz,
        invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE audit_entries (
        id bigserial PRIMARY KEY,
        actor_id uuid,
        actor_email text,
        action text NOT NULL,
        target_type text,
        target_id text,
        before jsonb,
        after jsonb,
        request_id text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query('CREATE INDEX audit_entries_created_at ON audit_entries (created_at DESC)');
    await queryRunner.query('CREATE INDEX audit_entries_actor ON audit_entries (actor_email)');
    await queryRunner.query('CREATE INDEX audit_entries_action ON audit_entries (action)');
    await queryRunner.query(`
      CREATE TABLE outbox_emails (
        id bigserial PRIMARY KEY,
        to_address text NOT NULL,
        subject text NOT NULL,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['outbox_emails', 'audit_entries', 'invitations', 'sessions', 'users', 'organizations']) {
      await queryRunner.query(`DROP TABLE ${table}`);
    }
  }
}
