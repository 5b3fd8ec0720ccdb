import WebSocket from 'ws';
import { BULK_MAX_IDS, ROLE_DEFAULT_PERMISSIONS, type BulkResult, type Permission, type Role, type ServerMessage } from '@cbh/contracts';
import { DEMO_PASSWORD, eventually, signIn, twoReplicasForThisFile, TEST_ADMIN, type TestApi } from '../../../test/test-api';
import { BreakerRegistry } from '../../breakers/breaker-registry.service';
import { DomainCheckRunner } from '../../domains/scheduling/domain-check-runner.service';
import { simpleBreaker } from '../../../test/breaker-bodies';

const spec = twoReplicasForThisFile();
beforeAll(async () => {
  // domain rounds (against an unreachable DNS server here) would move the verifications these tests look at
  for (const replica of [spec.api, spec.second]) await replica.app.get(DomainCheckRunner).onApplicationShutdown();
});

const call = (path: string, options: { method?: string; body?: unknown; cookie?: string | null } = {}) =>
  spec.api.call(path, { cookie: spec.admin, ...options });
const bulk = (path: string, body: unknown, cookie = spec.admin) => spec.api.call(path, { method: 'POST', body, cookie });

let counter = 0;
async function createBreakers(count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await call('/api/circuit-breakers', {
      method: 'POST',
      body: simpleBreaker(`Bulk ${++counter}`),
    });
    ids.push((await response.json()).id);
  }
  return ids;
}

async function addDomains(count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await call('/api/domains', { method: 'POST', body: { domain: `bulk-${++counter}.example.test` } });
    ids.push((await response.json()).id);
  }
  return ids;
}

/** A demo account of the role, holding its role's permissions and these, signed in. */
async function accountWith(role: Exclude<Role, 'super_admin'>, extra: Permission[]): Promise<string> {
  const email = { viewer: 'viewer@example.com', operator: 'operator@example.com', admin: 'admin@demo.example.com' }[role];
  const [{ id }] = await spec.api.sql('SELECT id FROM users WHERE email = $1', [email]);
  const granted = await call(`/api/users/${id}/permissions`, {
    method: 'PATCH',
    body: { permissions: [...ROLE_DEFAULT_PERMISSIONS[role], ...extra] },
  });
  expect(granted.status).toBe(200);
  return signIn(spec.api.baseUrl, email, DEMO_PASSWORD);
}

const overrides = async (ids: number[]) =>
  (await spec.api.sql('SELECT id, override FROM circuit_breaker_configs WHERE id = ANY($1) ORDER BY id', [ids])).map(
    (row) => `${row.id}:${row.override}`,
  );
const auditOf = async (action: string, ids: number[]) =>
  (
    await spec.api.sql('SELECT target_id FROM audit_entries WHERE action = $1 AND target_id = ANY($2) ORDER BY target_id::int', [
      action,
      ids.map(String),
    ])
  ).map((row) => Number(row.target_id));

/** A /ws connection of a session to a replica, keeping every message it receives. */
async function listen(replica: TestApi, cookie: string) {
  const socket = new WebSocket(`${replica.baseUrl.replace('http', 'ws')}/ws`, { headers: { cookie } });
  const messages: ServerMessage[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return { messages, close: () => socket.close() };
}

describe('POST /api/circuit-breakers/bulk', () => {
  it("forces many open at once: each item's outcome in the order asked, an unknown id a 404 of its own", async () => {
    const ids = await createBreakers(3);
    const response = await bulk('/api/circuit-breakers/bulk', { action: 'force-open', ids: [ids[2], 999_999, ids[0], ids[1]] });
    expect(response.status).toBe(200);
    expect((await response.json()) as BulkResult).toEqual({
      results: [
        { id: ids[2], ok: true, status: 200 },
        { id: 999_999, ok: false, status: 404, message: 'No circuit breaker with id 999999' },
        { id: ids[0], ok: true, status: 200 },
        { id: ids[1], ok: true, status: 200 },
      ],
    });
    expect(await overrides(ids)).toEqual(ids.map((id) => `${id}:forced-open`));
    const listed = (await (await call('/api/circuit-breakers')).json()) as { id: number; state: string }[];
    expect(listed.filter((b) => ids.includes(b.id)).map((b) => b.state)).toEqual(['OPEN', 'OPEN', 'OPEN']);
    // audited once per breaker, as the single control is, with who did it
    expect(await auditOf('breaker.force-open', ids)).toEqual(ids);
    const [entry] = await spec.api.sql(
      "SELECT actor_email, before, after FROM audit_entries WHERE action = 'breaker.force-open' AND target_id = $1",
      [String(ids[0])],
    );
    expect(entry).toEqual({
      actor_email: TEST_ADMIN.email,
      before: { state: 'CLOSED', override: 'none' },
      after: { override: 'forced-open' },
    });
    // journalled once each, naming who did it
    expect(
      await eventually(async () => {
        const rows = await spec.api.sql("SELECT config_id FROM breaker_transitions WHERE to_state = 'OPEN' AND config_id = ANY($1)", [ids]);
        return rows.length === 3;
      }),
    ).toBe(true);
  });

  it('reaches the other replica live: its breakers open and its /ws clients see every stateChange', async () => {
    const ids = await createBreakers(3);
    const viewer = await signIn(spec.second.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    const live = await listen(spec.second, viewer);
    try {
      expect((await bulk('/api/circuit-breakers/bulk', { action: 'force-open', ids })).status).toBe(200);
      const opened = () =>
        live.messages
          .filter((m) => m.type === 'stateChange' && m.data.to === 'OPEN' && ids.includes(m.data.configId))
          .map((m) => (m.type === 'stateChange' ? m.data.configId : 0))
          .sort((a, b) => a - b);
      expect(await eventually(async () => opened().length === 3)).toBe(true);
      expect(opened()).toEqual(ids);
      const manual = live.messages.filter((m) => m.type === 'configUpdated' && ids.includes(m.data.configId));
      expect(manual.map((m) => (m.type === 'configUpdated' ? m.data.manual?.action : undefined))).toEqual([
        'force-open',
        'force-open',
        'force-open',
      ]);
      const registry = spec.second.app.get(BreakerRegistry);
      expect(ids.map((id) => registry.get(id)?.state)).toEqual(['OPEN', 'OPEN', 'OPEN']);

      expect((await bulk('/api/circuit-breakers/bulk', { action: 'reset', ids })).status).toBe(200);
      expect(await eventually(async () => ids.every((id) => registry.get(id)?.state === 'CLOSED'))).toBe(true);
      expect(await overrides(ids)).toEqual(ids.map((id) => `${id}:none`));
    } finally {
      live.close();
    }
  });

  it('forces closed and disables many, each audited', async () => {
    const ids = await createBreakers(2);
    expect(await (await bulk('/api/circuit-breakers/bulk', { action: 'force-closed', ids })).json()).toEqual({
      results: ids.map((id) => ({ id, ok: true, status: 200 })),
    });
    expect(await overrides(ids)).toEqual(ids.map((id) => `${id}:forced-closed`));
    expect((await bulk('/api/circuit-breakers/bulk', { action: 'disable', ids })).status).toBe(200);
    expect(await overrides(ids)).toEqual(ids.map((id) => `${id}:disabled`));
    expect(await auditOf('breaker.force-closed', ids)).toEqual(ids);
    expect(await auditOf('breaker.disable', ids)).toEqual(ids);
  });

  it('deletes many, each on its own: one a load test runs through is refused with its 409, the others go', async () => {
    const ids = await createBreakers(3);
    const session = await (
      await call('/api/test-sessions', { method: 'POST', body: { configId: ids[1], failureRate: 0, requestRate: 1, duration: 1 } })
    ).json();
    try {
      const response = await bulk('/api/circuit-breakers/bulk', { action: 'delete', ids: [...ids, 999_998] });
      expect(await response.json()).toEqual({
        results: [
          { id: ids[0], ok: true, status: 204 },
          {
            id: ids[1],
            ok: false,
            status: 409,
            message: `Circuit breaker Bulk ${counter - 1} has a load test running (session ${session.id}); stop it before deleting the breaker`,
          },
          { id: ids[2], ok: true, status: 204 },
          { id: 999_998, ok: false, status: 404, message: 'No circuit breaker with id 999998' },
        ],
      });
      expect((await spec.api.sql('SELECT id FROM circuit_breaker_configs WHERE id = ANY($1)', [ids])).map((row) => row.id)).toEqual([
        ids[1],
      ]);
      expect(await auditOf('breaker.delete', ids)).toEqual([ids[0], ids[2]]);
      // every replica forgets the deleted ones
      expect(await eventually(async () => spec.second.app.get(BreakerRegistry).get(ids[0]!) === undefined)).toBe(true);
    } finally {
      await call(`/api/test-sessions/${session.id}/stop`, { method: 'POST' });
    }
  });

  it('forces 500 breakers open in one request, each with its outcome, the other replica following', async () => {
    const ids = (
      await spec.api.sql(
        `INSERT INTO circuit_breaker_configs (name, type, failure_threshold, timeout_ms, recovery_time_ms, success_threshold)
         SELECT 'Many ' || n, 'simple', 5, 30000, 60000, 3 FROM generate_series(1, $1::int) AS n RETURNING id`,
        [BULK_MAX_IDS],
      )
    ).map((row) => row.id as number);
    const response = await bulk('/api/circuit-breakers/bulk', { action: 'force-open', ids });
    const { results } = (await response.json()) as BulkResult;
    expect(results.map((result) => `${result.id}:${result.status}`)).toEqual(ids.map((id) => `${id}:200`));
    const registry = spec.second.app.get(BreakerRegistry);
    expect(await eventually(async () => ids.every((id) => registry.get(id)?.state === 'OPEN'), 5000)).toBe(true);
    expect(await auditOf('breaker.force-open', ids)).toHaveLength(BULK_MAX_IDS);
  });

  it('needs bulk_operations, and for the items the permission of their single action: else a 403 that changes nothing', async () => {
    const ids = await createBreakers(2);
    const operator = await signIn(spec.api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
    const refused = await bulk('/api/circuit-breakers/bulk', { action: 'force-open', ids }, operator);
    expect([refused.status, (await refused.json()).message]).toEqual([403, 'Requires the bulk_operations permission']);

    const bulkOperator = await accountWith('operator', ['bulk_operations']);
    const deleting = await bulk('/api/circuit-breakers/bulk', { action: 'delete', ids }, bulkOperator);
    expect([deleting.status, (await deleting.json()).message]).toEqual([403, 'Requires the circuit_breaker_admin permission']);
    expect(await auditOf('breaker.delete', ids)).toEqual([]);
    expect((await bulk('/api/circuit-breakers/bulk', { action: 'force-open', ids }, bulkOperator)).status).toBe(200);

    const bulkViewer = await accountWith('viewer', ['bulk_operations']);
    const forcing = await bulk('/api/circuit-breakers/bulk', { action: 'reset', ids }, bulkViewer);
    expect([forcing.status, (await forcing.json()).message]).toEqual([403, 'Requires the circuit_breaker_operate permission']);
    expect(await overrides(ids)).toEqual(ids.map((id) => `${id}:forced-open`));
  });

  it('refuses no ids, more than 500, duplicates, other ids and unknown actions or fields with a 400', async () => {
    const ids = await createBreakers(1);
    const tooMany = Array.from({ length: BULK_MAX_IDS + 1 }, (_, index) => index + 1);
    const answers: string[] = [];
    for (const body of [
      { action: 'force-open', ids: [] },
      { action: 'force-open', ids: tooMany },
      { action: 'force-open', ids: [ids[0], ids[0]] },
      { action: 'force-open', ids: [0] },
      { action: 'force-open', ids: ['1'] },
      { action: 'explode', ids },
      { action: 'verify', ids },
      { action: 'force-open' },
      { action: 'force-open', ids, extra: true },
    ]) {
      const response = await bulk('/api/circuit-breakers/bulk', body);
      answers.push(`${response.status} ${(await response.json()).message}`);
    }
    expect(answers).toEqual([
      '400 ids: name at least one id',
      `400 ids: must name at most ${BULK_MAX_IDS} ids`,
      '400 ids: must not name an id twice',
      '400 ids.0: must be an id',
      '400 ids.0: must be an id',
      '400 action: must be one of force-open, force-closed, disable, reset, delete',
      '400 action: must be one of force-open, force-closed, disable, reset, delete',
      '400 ids: is required',
      '400 unknown field extra',
    ]);
    expect(await overrides(ids)).toEqual([`${ids[0]}:none`]);
  });
});

describe('POST /api/domains/bulk', () => {
  it('asks for many domains to be verified now, each audited and announced; an unknown id is a 404 of its own', async () => {
    const ids = await addDomains(2);
    const viewerOfDomains = await listen(spec.api, spec.admin);
    try {
      const response = await bulk('/api/domains/bulk', { action: 'verify', ids: [ids[1], 999_997, ids[0]] });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        results: [
          { id: ids[1], ok: true, status: 202 },
          { id: 999_997, ok: false, status: 404, message: 'No domain with id 999997' },
          { id: ids[0], ok: true, status: 202 },
        ],
      });
      const rows = await spec.api.sql('SELECT domain_id, status FROM domain_verifications WHERE domain_id = ANY($1) ORDER BY domain_id', [
        ids,
      ]);
      expect(rows).toEqual(ids.map((id) => ({ domain_id: id, status: 'verifying' })));
      expect(await auditOf('domain.verify', ids)).toEqual(ids);
      // each domain announced (at least once: any later change of it is announced too), heard over the replica's LISTEN
      const announced = () =>
        [
          ...new Set(
            viewerOfDomains.messages.flatMap((m) => (m.type === 'domainUpdated' && ids.includes(m.data.domainId) ? [m.data.domainId] : [])),
          ),
        ].sort();
      await eventually(async () => announced().length === ids.length, 10_000);
      expect({ announced: announced(), heard: viewerOfDomains.messages.map((m) => m.type) }).toEqual({
        announced: [...ids].sort(),
        heard: expect.arrayContaining(['domainUpdated']),
      });
    } finally {
      viewerOfDomains.close();
    }
  });

  it('deletes many domains, each audited', async () => {
    const ids = await addDomains(3);
    const response = await bulk('/api/domains/bulk', { action: 'delete', ids });
    expect(await response.json()).toEqual({ results: ids.map((id) => ({ id, ok: true, status: 204 })) });
    expect(await spec.api.sql('SELECT id FROM domains WHERE id = ANY($1)', [ids])).toEqual([]);
    expect(await auditOf('domain.delete', ids)).toEqual(ids);
    const again = await bulk('/api/domains/bulk', { action: 'delete', ids: [ids[0]] });
    expect(await again.json()).toEqual({ results: [{ id: ids[0], ok: false, status: 404, message: `No domain with id ${ids[0]}` }] });
  });

  it('needs domain_management beside bulk_operations, and refuses a bad request with a 400', async () => {
    const ids = await addDomains(1);
    const bulkAdmin = await accountWith('admin', ['bulk_operations']);
    // the demo admin holds domain_management by default: without it, the request is refused whole
    const [{ id }] = await spec.api.sql("SELECT id FROM users WHERE email = 'operator@example.com'");
    await call(`/api/users/${id}/permissions`, {
      method: 'PATCH',
      body: { permissions: [...ROLE_DEFAULT_PERMISSIONS.operator, 'bulk_operations'] },
    });
    const bulkOperator = await signIn(spec.api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
    const refused = await bulk('/api/domains/bulk', { action: 'delete', ids }, bulkOperator);
    expect([refused.status, (await refused.json()).message]).toEqual([403, 'Requires the domain_management permission']);
    expect(await spec.api.sql('SELECT id FROM domains WHERE id = ANY($1)', [ids])).toHaveLength(1);

    for (const body of [
      { action: 'force-open', ids },
      { action: 'delete', ids: [] },
      { action: 'verify', ids: [ids[0], ids[0]] },
    ]) {
      expect((await bulk('/api/domains/bulk', body, bulkAdmin)).status).toBe(400);
    }
    expect((await bulk('/api/domains/bulk', { action: 'verify', ids }, bulkAdmin)).status).toBe(200);
  });
});
