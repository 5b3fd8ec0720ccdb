import { randomBytes } from 'node:crypto';
import { RETENTION_DEFAULTS, type PruneResultView, type RetentionView } from '@cbh/contracts';
import { DEMO_PASSWORD, signIn, twoReplicasForThisFile, TEST_ADMIN } from '../../test/test-api';
import { RetentionService } from './retention.service';

const spec = twoReplicasForThisFile();

const patch = (body: unknown, cookie = spec.admin, replica = spec.api) =>
  replica.call('/api/system/retention', { method: 'PATCH', cookie, body });
const prune = (cookie = spec.admin) => spec.api.call('/api/system/retention/prune', { method: 'POST', cookie });

describe('settings', () => {
  it('answers the defaults until changed, then the change on every replica, audited with before and after', async () => {
    const initial = await spec.api.call('/api/system/retention', { cookie: spec.admin });
    expect(initial.status).toBe(200);
    expect(await initial.json()).toEqual({ ...RETENTION_DEFAULTS, lastPrunedAt: null, lastPruned: null });

    const changed = await patch({ auditDays: 400, transitionDays: 60 });
    expect(changed.status).toBe(200);
    const expected: RetentionView = { ...RETENTION_DEFAULTS, auditDays: 400, transitionDays: 60, lastPrunedAt: null, lastPruned: null };
    expect(await changed.json()).toEqual(expected);
    expect(await (await spec.second.call('/api/system/retention', { cookie: spec.admin })).json()).toEqual(expected);

    const [entry] = await spec.api.sql(
      "SELECT actor_email, before, after FROM audit_entries WHERE action = 'retention.update' ORDER BY id DESC LIMIT 1",
    );
    expect(entry).toEqual({
      actor_email: TEST_ADMIN.email,
      before: RETENTION_DEFAULTS,
      after: { ...RETENTION_DEFAULTS, auditDays: 400, transitionDays: 60 },
    });
    await patch(RETENTION_DEFAULTS);
  });

  it.each([
    [{ auditDays: 0 }, 'auditDays: must be at least 90 days'],
    [{ auditDays: 89 }, 'auditDays: must be at least 90 days'],
    [{ checkResultDays: 0 }, 'checkResultDays: must be at least 1 day'],
    [{ checkResultDays: 3651 }, 'checkResultDays: must be at most 3650 days'],
    [{ transitionDays: 1.5 }, 'transitionDays: must be whole days'],
    [{ notificationDays: '30' }, 'notificationDays: must be a number of days'],
    [{}, 'name at least one setting to change'],
    [{ auditDays: 120, keepForever: true }, 'unknown field keepForever'],
  ])('refuses %j with a 400 naming the problem and keeps the settings', async (body, message) => {
    const response = await patch(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message });
    expect(await (await spec.api.call('/api/system/retention', { cookie: spec.admin })).json()).toMatchObject(RETENTION_DEFAULTS);
  });

  it('is refused (403) without system_admin, whatever the role, and open to any account granted it', async () => {
    const demoAdmin = await signIn(spec.api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
    const refused = { statusCode: 403, error: 'Forbidden', message: 'Requires the system_admin permission' };
    for (const response of [
      await spec.api.call('/api/system/retention', { cookie: demoAdmin }),
      await patch({ auditDays: 5 }, demoAdmin),
      await prune(demoAdmin),
    ]) {
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual(refused);
    }
    expect((await spec.api.call('/api/system/retention', {})).status).toBe(401);

    const [viewer] = await spec.api.sql("SELECT id FROM users WHERE email = 'viewer@example.com'");
    const granted = await spec.api.call(`/api/users/${viewer.id}/permissions`, {
      method: 'PATCH',
      cookie: spec.admin,
      body: { permissions: ['dashboard_view', 'circuit_breaker_view', 'system_admin'] },
    });
    expect(granted.status).toBe(200);
    const viewerSession = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    expect((await spec.api.call('/api/system/retention', { cookie: viewerSession })).status).toBe(200);
    expect(await spec.api.sql('SELECT 1 FROM retention_settings WHERE audit_days = 5')).toEqual([]);
  });

  it('lets a holder of system_admin raise the audit retention, but lower it only with audit_access too (403, nothing changed)', async () => {
    const [account] = await spec.api.sql("SELECT id FROM users WHERE email = 'operator@example.com'");
    const grant = async (permissions: string[]) => {
      const response = await spec.api.call(`/api/users/${account.id}/permissions`, {
        method: 'PATCH',
        cookie: spec.admin,
        body: { permissions },
      });
      expect(response.status).toBe(200);
      return signIn(spec.api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
    };
    const systemAdmin = await grant(['dashboard_view', 'system_admin']);
    expect((await patch({ auditDays: 500, transitionDays: 30 }, systemAdmin)).status).toBe(200);
    expect((await patch({ transitionDays: 20 }, systemAdmin)).status).toBe(200);

    for (const body of [{ auditDays: 499 }, { auditDays: 90, transitionDays: 10 }]) {
      const refused = await patch(body, systemAdmin, spec.second);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({
        statusCode: 403,
        error: 'Forbidden',
        message: 'Requires the audit_access permission to lower the audit retention',
      });
    }
    expect(await (await spec.api.call('/api/system/retention', { cookie: spec.admin })).json()).toMatchObject({
      auditDays: 500,
      transitionDays: 20,
    });
    expect(
      await spec.api.sql(
        "SELECT 1 FROM audit_entries WHERE action = 'retention.update' AND actor_email = 'operator@example.com' AND (after->>'auditDays')::int < 500",
      ),
    ).toEqual([]);

    const auditor = await grant(['dashboard_view', 'system_admin', 'audit_access']);
    const lowered = await patch({ auditDays: 90 }, auditor, spec.second);
    expect(lowered.status).toBe(200);
    expect(await lowered.json()).toMatchObject({ auditDays: 90 });
    // the table holds the floor too, whatever writes to it
    await expect(spec.api.sql('UPDATE retention_settings SET audit_days = 1')).rejects.toThrow(/retention_settings_audit_floor/);
    await patch(RETENTION_DEFAULTS);
  });
});

describe('pruning', () => {
  /** Inserts one row of each kind `days` days old (negative: in the future) and answers a query that says which still exist. */
  async function seed(
    label: string,
    ageDays: { audit: number; checks: number; transitions: number; notifications: number; expiredTokenDays: number; usageHours: number },
  ) {
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
    const [{ config }] = await spec.api.sql('SELECT min(id) AS config FROM circuit_breaker_configs');
    const [{ domain }] = await spec.api.sql('SELECT min(id) AS domain FROM domains');
    const [{ root }] = await spec.api.sql('SELECT id AS root FROM users WHERE email = $1', [TEST_ADMIN.email]);
    const [audit] = await spec.api.sql('INSERT INTO audit_entries (action, created_at) VALUES ($1, $2) RETURNING id', [
      `test.${label}`,
      ago(ageDays.audit),
    ]);
    const metric = ago(ageDays.checks);
    await spec.api.sql(
      "INSERT INTO metric_buckets (config_id, second, instance_id, success) VALUES ($1, $2, '00000000-0000-4000-8000-000000000001', 1)",
      [config, metric],
    );
    await spec.api.sql('INSERT INTO domain_check_buckets (domain_id, minute, checks) VALUES ($1, $2, 1)', [domain, metric]);
    const [session] = await spec.api.sql(
      `INSERT INTO test_sessions (config_id, failure_rate, request_rate, duration_minutes, status, started_at, ends_at)
       VALUES ($1, 10, 10, 1, 'completed', $2, $2) RETURNING id`,
      [config, metric],
    );
    const [transition] = await spec.api.sql(
      "INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, at) VALUES ($1, 'CLOSED', 'OPEN', $2, $3) RETURNING id",
      [config, label, ago(ageDays.transitions)],
    );
    const [token] = await spec.api.sql(
      `INSERT INTO api_tokens (user_id, name, token_hash, prefix, permissions, expires_at)
       VALUES ($1, $2, $3, 'cbh_test0000', '{}', $4) RETURNING id`,
      [root, label, randomBytes(32).toString('hex'), ago(ageDays.expiredTokenDays)],
    );
    // the usage window belongs to a live token: an expired one's counts would go with it
    const [live] = await spec.api.sql(
      `INSERT INTO api_tokens (user_id, name, token_hash, prefix, permissions, expires_at)
       VALUES ($1, $2, $3, 'cbh_test0000', '{}', now() + interval '1 day') RETURNING id`,
      [root, `${label} live`, randomBytes(32).toString('hex')],
    );
    await spec.api.sql('INSERT INTO api_token_usage (token_id, window_start, requests) VALUES ($1, $2, 1)', [
      live.id,
      new Date(Date.now() - ageDays.usageHours * 3_600_000),
    ]);
    const notified = ago(ageDays.notifications);
    const [channel] = await spec.api.sql(
      "INSERT INTO notification_channels (name, type, recipients) VALUES ($1, 'email', '{ops@example.com}') RETURNING id",
      [`retention ${label}`],
    );
    const [event] = await spec.api.sql(
      `INSERT INTO notification_events (type, subject_kind, subject_id, subject_name, occurred_at, data, dispatched_at)
       VALUES ('breaker.opened', 'breaker', $1, 'x', $2, '{}', $2) RETURNING id`,
      [config, notified],
    );
    const deliveryOf = async (status: string) =>
      (
        await spec.api.sql(
          `INSERT INTO notification_deliveries (event_type, subject, occurred_at, payload, channel_id, status, created_at)
           VALUES ('breaker.opened', 'x', $1, '{}', $2, $3, $1) RETURNING id`,
          [notified, channel.id, status],
        )
      )[0].id;
    const delivered = await deliveryOf('delivered');
    // a delivery still waiting for its next try is kept whatever its age
    const waiting = await deliveryOf('pending');
    await spec.api.sql("UPDATE notification_deliveries SET next_attempt_at = now() + interval '1 day' WHERE id = $1", [waiting]);
    return async () => {
      const [left] = await spec.api.sql(
        `SELECT EXISTS (SELECT 1 FROM audit_entries WHERE id = $1) AS audit,
                EXISTS (SELECT 1 FROM metric_buckets WHERE config_id = $2 AND second = $3) AS metric,
                EXISTS (SELECT 1 FROM domain_check_buckets WHERE domain_id = $4 AND minute = $3) AS uptime,
                EXISTS (SELECT 1 FROM test_sessions WHERE id = $5) AS "loadTest",
                EXISTS (SELECT 1 FROM breaker_transitions WHERE id = $6) AS transition,
                EXISTS (SELECT 1 FROM api_tokens WHERE id = $7) AS "expiredToken",
                EXISTS (SELECT 1 FROM api_token_usage WHERE token_id = $8) AS usage,
                EXISTS (SELECT 1 FROM notification_deliveries WHERE id = $9) AS delivery,
                EXISTS (SELECT 1 FROM notification_events WHERE id = $10) AS event,
                EXISTS (SELECT 1 FROM notification_deliveries WHERE id = $11) AS waiting`,
        [audit.id, config, metric, domain, session.id, transition.id, token.id, live.id, delivered, event.id, waiting],
      );
      return left;
    };
  }

  const none = {
    audit: false,
    metric: false,
    uptime: false,
    loadTest: false,
    transition: false,
    expiredToken: false,
    usage: false,
    delivery: false,
    event: false,
    waiting: true,
  };
  const all = {
    audit: true,
    metric: true,
    uptime: true,
    loadTest: true,
    transition: true,
    expiredToken: true,
    usage: true,
    delivery: true,
    event: true,
    waiting: true,
  };

  it('deletes each kind older than its setting, keeps what is newer, and shows when and what it removed', async () => {
    await spec.api.call('/api/domains', { method: 'POST', cookie: spec.admin, body: { domain: 'retention.example.test' } });
    expect((await patch({ auditDays: 100, checkResultDays: 5, transitionDays: 7, notificationDays: 3 })).status).toBe(200);
    const oldRows = await seed('old', { audit: 101, checks: 6, transitions: 8, notifications: 4, expiredTokenDays: 31, usageHours: 2 });
    const newRows = await seed('new', { audit: 99, checks: 4, transitions: 6, notifications: 2, expiredTokenDays: 29, usageHours: 0 });

    const response = await prune();
    expect(response.status).toBe(200);
    const result: PruneResultView = await response.json();
    expect(result.removed).toEqual({ audit: 1, checkResults: 3, transitions: 1, notifications: 2, expiredTokens: 1, tokenUsage: 1 });
    expect(await oldRows()).toEqual(none);
    expect(await newRows()).toEqual(all);

    const view: RetentionView = await (await spec.second.call('/api/system/retention', { cookie: spec.admin })).json();
    expect(view).toMatchObject({
      auditDays: 100,
      checkResultDays: 5,
      transitionDays: 7,
      notificationDays: 3,
      lastPrunedAt: result.prunedAt,
      lastPruned: result.removed,
    });
    const [entry] = await spec.api.sql(
      "SELECT actor_email, after FROM audit_entries WHERE action = 'retention.prune' ORDER BY id DESC LIMIT 1",
    );
    expect(entry).toEqual({
      actor_email: TEST_ADMIN.email,
      after: {
        removed: result.removed,
        settings: { ...RETENTION_DEFAULTS, auditDays: 100, checkResultDays: 5, transitionDays: 7, notificationDays: 3 },
      },
    });
  });

  it('deletes a backlog larger than one batch', async () => {
    await spec.api.sql(
      `INSERT INTO audit_entries (action, created_at) SELECT 'test.backlog', now() - interval '400 days' FROM generate_series(1, 12000)`,
    );
    const result: PruneResultView = await (await prune()).json();
    expect(result.removed.audit).toBe(12000);
    expect(await spec.api.sql("SELECT 1 FROM audit_entries WHERE action = 'test.backlog'")).toEqual([]);
  });

  it('runs the daily prune on exactly one of the replicas asking at once, and not again the same day', async () => {
    await spec.api.sql('UPDATE retention_settings SET last_pruned_at = NULL');
    const services = [spec.api, spec.second, spec.api, spec.second].map((replica) => replica.app.get(RetentionService));
    const outcomes = await Promise.all(services.map((service) => service.pruneIfDue()));
    expect(outcomes.filter((outcome) => outcome !== null)).toHaveLength(1);
    expect(await services[0]!.pruneIfDue()).toBeNull();

    await spec.api.sql("UPDATE retention_settings SET last_pruned_at = now() - interval '25 hours'");
    expect(await services[1]!.pruneIfDue()).not.toBeNull();
  });

  it('refuses to prune now (409) while a replica holds the prune, and takes over a claim that lapsed', async () => {
    await spec.api.sql('UPDATE retention_settings SET pruning_since = now()');
    const refused = await prune();
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: 'A prune is running already; its outcome shows here when it finishes',
    });
    expect(await spec.api.app.get(RetentionService).pruneIfDue()).toBeNull();

    // a replica that died mid-prune holds it no longer than an hour
    await spec.api.sql("UPDATE retention_settings SET pruning_since = now() - interval '61 minutes'");
    expect((await prune()).status).toBe(200);
    expect(await spec.api.sql('SELECT 1 FROM retention_settings WHERE pruning_since IS NOT NULL')).toEqual([]);
  });

  it('refuses a prune request carrying settings (400)', async () => {
    const response = await spec.api.call('/api/system/retention/prune', { method: 'POST', cookie: spec.admin, body: { auditDays: 1 } });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('unknown field auditDays');
  });
});
