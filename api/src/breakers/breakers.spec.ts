import { Client } from 'pg';
import WebSocket from 'ws';
import { ROLE_DEFAULT_PERMISSIONS, type ServerMessage } from '@cbh/contracts';
import { apiForThisFile, DEMO_PASSWORD, eventually, signIn } from '../../test/test-api';
import { BreakerRegistry } from './breaker-registry.service';
import { DEMO_BREAKERS } from './demo-breakers';
import { simpleBreaker } from '../../test/breaker-bodies';

const spec = apiForThisFile();

const call = (path: string, options: { method?: string; body?: unknown; cookie?: string | null } = {}) =>
  spec.api.call(path, { cookie: spec.admin, ...options });

it('seeds copies of the demo breakers, leaving the list every app of the process shares as written', () => {
  expect(
    DEMO_BREAKERS.map((breaker) => Object.keys(breaker).filter((key) => ['id', 'createdAt', 'updatedAt', 'version'].includes(key))),
  ).toEqual([[], [], []]);
});

it('seeds one demo breaker per type, CLOSED', async () => {
  const breakers = await (await call('/api/circuit-breakers')).json();
  expect(breakers.map((b: { type: string; state: string }) => [b.type, b.state])).toEqual([
    ['simple', 'CLOSED'],
    ['adaptive', 'CLOSED'],
    ['bulkhead', 'CLOSED'],
  ]);
  expect(breakers[0]).toMatchObject({ failureThreshold: 5, timeout: 30_000, recoveryTime: 60_000, successThreshold: 3 });
});

it('creates, updates the four settings within the slider ranges, and deletes a breaker', async () => {
  const created = await call('/api/circuit-breakers', {
    method: 'POST',
    body: {
      name: 'Orders',
      type: 'bulkhead',
      failureThreshold: 4,
      timeout: 20_000,
      recoveryTime: 30_000,
      successThreshold: 2,
      maxConcurrentCalls: 5,
    },
  });
  expect(created.status).toBe(201);
  const breaker = await created.json();
  expect(breaker).toMatchObject({ name: 'Orders', type: 'bulkhead', maxConcurrentCalls: 5, state: 'CLOSED' });

  const patched = await call(`/api/circuit-breakers/${breaker.id}`, {
    method: 'PATCH',
    body: { failureThreshold: 20, timeout: 120_000, recoveryTime: 300_000, successThreshold: 10 },
  });
  expect(await patched.json()).toMatchObject({ failureThreshold: 20, timeout: 120_000, recoveryTime: 300_000, successThreshold: 10 });

  for (const [body, message] of [
    [{ failureThreshold: 21 }, 'failureThreshold: must be at most 20'],
    [{ timeout: 0 }, 'timeout: must be at least 5000 ms'],
    [{ timeout: 7_000 }, 'timeout: must be a multiple of 5000 ms'],
    [{ recoveryTime: 310_000 }, 'recoveryTime: must be at most 300000 ms'],
    [{ successThreshold: 0 }, 'successThreshold: must be at least 1'],
    [{}, 'send at least one of failureThreshold, timeout, recoveryTime, successThreshold'],
    [{ failureThreshold: 5, colour: 'red' }, 'unknown field colour'],
  ] as const) {
    const response = await call(`/api/circuit-breakers/${breaker.id}`, { method: 'PATCH', body });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(message);
  }

  expect((await call(`/api/circuit-breakers/${breaker.id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await call(`/api/circuit-breakers/${breaker.id}`, { method: 'PATCH', body: { failureThreshold: 3 } })).status).toBe(404);
  expect((await (await call('/api/circuit-breakers/abc', { method: 'DELETE' })).json()).message).toBe('id: must be a breaker id');
});

it('forces open and closed, resets, and journals each transition', async () => {
  const [first] = await (await call('/api/circuit-breakers')).json();
  const opened = await (await call(`/api/circuit-breakers/${first.id}/force-open`, { method: 'POST' })).json();
  expect(opened).toMatchObject({ state: 'OPEN', override: 'forced-open' });
  expect(await (await call(`/api/circuit-breakers/${first.id}/force-closed`, { method: 'POST' })).json()).toMatchObject({
    state: 'CLOSED',
    override: 'forced-closed',
  });
  expect(await (await call(`/api/circuit-breakers/${first.id}/reset`, { method: 'POST' })).json()).toMatchObject({
    state: 'CLOSED',
    override: 'none',
  });

  expect(await (await call(`/api/circuit-breakers/${first.id}/disable`, { method: 'POST' })).json()).toMatchObject({
    state: 'CLOSED',
    override: 'disabled',
  });
  await call(`/api/circuit-breakers/${first.id}/reset`, { method: 'POST' });

  // moves are journalled beside the answers, not before them: both are there once their inserts commit
  let journal = { transitions: [] as { from: string; to: string; reason: string }[], nextBefore: null as string | null };
  await eventually(async () => {
    journal = await (await call(`/api/circuit-breakers/${first.id}/transitions`)).json();
    return journal.transitions.length >= 2;
  }, 5000);
  // a control that does not change the state (disable, reset of a closed breaker) is audited, not journalled
  expect(journal.transitions.map((t: { from: string; to: string; reason: string }) => `${t.from}->${t.to} (${t.reason})`)).toEqual([
    // the bootstrap super admin's name
    'OPEN->CLOSED (forced closed by Admin)',
    'CLOSED->OPEN (forced open by Admin)',
  ]);
  expect(journal.nextBefore).toBeNull();
  const audit = await spec.api.sql("SELECT action FROM audit_entries WHERE target_type = 'circuit_breaker' ORDER BY id");
  expect(audit.map((row) => row.action)).toEqual(
    expect.arrayContaining([
      'breaker.create',
      'breaker.update',
      'breaker.delete',
      'breaker.force-open',
      'breaker.force-closed',
      'breaker.disable',
      'breaker.reset',
    ]),
  );
});

it("moves a breaker from the database's state when another replica's control has not reached this one yet", async () => {
  const breaker = await (
    await call('/api/circuit-breakers', { method: 'POST', body: simpleBreaker('Behind a peer', { failureThreshold: 1 }) })
  ).json();
  // a failing call opens it here, and an operator forces it open on top
  const engine = spec.api.app.get(BreakerRegistry).get(breaker.id)!;
  expect(engine.admit()).toBe('permitted');
  engine.record(false);
  await call(`/api/circuit-breakers/${breaker.id}/force-open`, { method: 'POST' });
  // another replica's Reset, committed under the row's lock, its message still on the way to this replica
  await spec.api.sql("UPDATE circuit_breaker_configs SET override = 'none', version = version + 1 WHERE id = $1", [breaker.id]);
  const opened = await (await call(`/api/circuit-breakers/${breaker.id}/force-open`, { method: 'POST' })).json();
  expect(opened).toMatchObject({ state: 'OPEN', override: 'forced-open' });
  // this Force open moved the breaker the Reset had closed: an opening of its own, journalled (and so notified)
  let moves: string[] = [];
  await eventually(async () => {
    const { transitions } = await (await call(`/api/circuit-breakers/${breaker.id}/transitions`)).json();
    moves = (transitions as { from: string; to: string; reason: string }[]).map(({ from, to, reason }) => `${from}->${to} (${reason})`);
    return moves.length >= 2;
  }, 5000);
  expect(moves).toEqual(['CLOSED->OPEN (forced open by Admin)', 'CLOSED->OPEN (1 consecutive failure)']);
  const [audit] = await spec.api.sql(
    "SELECT before FROM audit_entries WHERE action = 'breaker.force-open' AND target_id = $1 ORDER BY id DESC LIMIT 1",
    [String(breaker.id)],
  );
  expect(audit.before).toEqual({ state: 'CLOSED', override: 'none' });
});

/** A new breaker (threshold 1, timeout 5 s) in front of a new chaos service that always fails. */
async function breakerBehindFailingService(name: string) {
  const breaker = await (
    await call('/api/circuit-breakers', {
      method: 'POST',
      body: simpleBreaker(name, { failureThreshold: 1, timeout: 5_000, recoveryTime: 10_000, successThreshold: 1 }),
    })
  ).json();
  const service = await (
    await call('/api/services', {
      method: 'POST',
      body: { name, endpoint: '/api/chaos/0', failureRate: 100, averageResponseTime: 1, circuitBreakerConfigId: breaker.id },
    })
  ).json();
  await call(`/api/services/${service.id}`, { method: 'PATCH', body: { endpoint: `/api/chaos/${service.id}` } });
  const testService = async () => (await call(`/api/services/${service.id}/test`, { method: 'POST' })).json();
  const stateOf = async () =>
    ((await (await call('/api/circuit-breakers')).json()) as { id: number; state: string }[]).find((b) => b.id === breaker.id)?.state;
  const journal = async () =>
    ((await (await call(`/api/circuit-breakers/${breaker.id}/transitions`)).json()).transitions as { to: string; reason: string }[]).map(
      (t) => `${t.to} (${t.reason})`,
    );
  const waitWhileOpen = async () => {
    const since = Date.now();
    while ((await stateOf()) === 'OPEN' && Date.now() - since < 10_000) await new Promise((resolve) => setTimeout(resolve, 100));
  };
  return { breaker, testService, stateOf, journal, waitWhileOpen };
}

it('half-opens an open breaker when its timeout ends, with no call; reading it in between changes nothing', async () => {
  const { testService, stateOf, journal, waitWhileOpen } = await breakerBehindFailingService('Ledger');
  expect(await testService()).toMatchObject({ success: false, circuitBreakerState: 'OPEN' });
  for (let i = 0; i < 5; i++) expect(await stateOf()).toBe('OPEN');
  // the journal is written beside the answer, not before it
  expect(await eventually(async () => (await journal()).length > 0)).toBe(true);
  expect(await journal()).toEqual(['OPEN (1 consecutive failure)']);

  await waitWhileOpen();
  expect(await stateOf()).toBe('HALF_OPEN');
  // the timed move too is journalled beside the state, so the list can show HALF_OPEN a moment before its row exists
  expect(await eventually(async () => (await journal()).length > 1)).toBe(true);
  expect(await journal()).toEqual(['HALF_OPEN (open period of 5 s elapsed)', 'OPEN (1 consecutive failure)']);
});

it('a call ending on a breaker its settings change replaced does not keep the new breaker open', async () => {
  const { breaker, testService, stateOf, waitWhileOpen } = await breakerBehindFailingService('Billing');
  const replaced = spec.api.app.get(BreakerRegistry).get(breaker.id)!;
  expect(replaced.admit()).toBe('permitted'); // a call in flight on the breaker about to be replaced
  await call(`/api/circuit-breakers/${breaker.id}`, { method: 'PATCH', body: { recoveryTime: 20_000 } });
  expect(await testService()).toMatchObject({ circuitBreakerState: 'OPEN' });
  replaced.record(false); // the old call fails afterwards: the replaced breaker opens

  await waitWhileOpen();
  expect(await stateOf()).toBe('HALF_OPEN');
});

it('lets viewers read but not change breakers', async () => {
  expect(ROLE_DEFAULT_PERMISSIONS.viewer).toContain('circuit_breaker_view');
  const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
  expect((await call('/api/circuit-breakers', { cookie: viewer })).status).toBe(200);
  const refused = await call('/api/circuit-breakers/1', { method: 'PATCH', cookie: viewer, body: { failureThreshold: 3 } });
  expect(refused.status).toBe(403);
  expect((await refused.json()).message).toBe('Requires the circuit_breaker_admin permission');
});

it('lets operators use the manual controls but not change or delete a breaker', async () => {
  const operator = await signIn(spec.api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
  const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
  const [first] = await (await call('/api/circuit-breakers')).json();
  const refused = await call(`/api/circuit-breakers/${first.id}/force-open`, { method: 'POST', cookie: viewer });
  expect([refused.status, (await refused.json()).message]).toEqual([403, 'Requires the circuit_breaker_operate permission']);
  const forced = await call(`/api/circuit-breakers/${first.id}/force-open`, { method: 'POST', cookie: operator });
  expect(await forced.json()).toMatchObject({ state: 'OPEN', override: 'forced-open' });
  expect((await call(`/api/circuit-breakers/${first.id}`, { method: 'DELETE', cookie: operator })).status).toBe(403);
  // the override is kept with the configuration, for replicas that start later
  const [row] = await spec.api.sql('SELECT override FROM circuit_breaker_configs WHERE id = $1', [first.id]);
  expect(row!.override).toBe('forced-open');
  await call(`/api/circuit-breakers/${first.id}/reset`, { method: 'POST', cookie: operator });
  const [after] = await spec.api.sql('SELECT override FROM circuit_breaker_configs WHERE id = $1', [first.id]);
  expect(after!.override).toBe('none');
});

it('pages the journal newest first, with a bounded page size', async () => {
  const created = await (
    await call('/api/circuit-breakers', {
      method: 'POST',
      body: simpleBreaker('Journal pages'),
    })
  ).json();
  for (let i = 0; i < 5; i++) {
    await call(`/api/circuit-breakers/${created.id}/force-open`, { method: 'POST' });
    await call(`/api/circuit-breakers/${created.id}/reset`, { method: 'POST' });
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
  const page = async (query: string) => (await call(`/api/circuit-breakers/${created.id}/transitions${query}`)).json();
  const first = await page('?limit=4');
  expect(first.transitions.map((t: { to: string }) => t.to)).toEqual(['CLOSED', 'OPEN', 'CLOSED', 'OPEN']);
  const second = await page(`?limit=4&before=${first.nextBefore}`);
  const third = await page(`?limit=4&before=${second.nextBefore}`);
  expect([second.transitions.length, third.transitions.length, third.nextBefore]).toEqual([4, 2, null]);
  const ids = [...first.transitions, ...second.transitions, ...third.transitions].map((t: { id: number }) => t.id);
  expect(new Set(ids).size).toBe(10);
  expect(ids).toEqual([...ids].sort((a, b) => b - a));
  for (const bad of ['?limit=0', '?limit=501', '?before=x', '?page=2']) {
    expect((await call(`/api/circuit-breakers/${created.id}/transitions${bad}`)).status).toBe(400);
  }
});

it('refuses to delete a breaker while a load test runs through it, naming why', async () => {
  const created = await (
    await call('/api/circuit-breakers', {
      method: 'POST',
      body: simpleBreaker('Busy'),
    })
  ).json();
  const session = await (
    await call('/api/test-sessions', { method: 'POST', body: { configId: created.id, failureRate: 0, requestRate: 5, duration: 1 } })
  ).json();
  const refused = await call(`/api/circuit-breakers/${created.id}`, { method: 'DELETE' });
  expect(refused.status).toBe(409);
  expect((await refused.json()).message).toBe(
    `Circuit breaker Busy has a load test running (session ${session.id}); stop it before deleting the breaker`,
  );
  const history = await (await call(`/api/test-sessions?configId=${created.id}`)).json();
  expect(history.map((s: { id: number }) => s.id)).toEqual([session.id]);
  await call(`/api/test-sessions/${session.id}/stop`, { method: 'POST' });
  expect((await call(`/api/circuit-breakers/${created.id}`, { method: 'DELETE' })).status).toBe(204);
  expect((await call('/api/test-sessions?configId=abc')).status).toBe(400);
});

/** A /ws connection of a session, and the next message of a type about a breaker, as its raw text. */
async function liveMessages(cookie: string) {
  const socket = new WebSocket(`${spec.api.baseUrl.replace('http', 'ws')}/ws`, { headers: { cookie } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const next = (type: ServerMessage['type'], configId: number) =>
    new Promise<string>((resolve) => {
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data));
        if (message.type !== type || message.data.configId !== configId) return;
        socket.off('message', onMessage);
        resolve(String(data));
      };
      socket.on('message', onMessage);
    });
  return { next, close: () => socket.close() };
}

it('announces a control’s move once the journal has it, its stateChange and configUpdated in one NOTIFY', async () => {
  const created = await (await call('/api/circuit-breakers', { method: 'POST', body: simpleBreaker('Journalled first') })).json();
  const live = await liveMessages(spec.admin);
  const locker = new Client({ connectionString: spec.api.databaseUrl });
  const listener = new Client({ connectionString: spec.api.databaseUrl });
  await Promise.all([locker.connect(), listener.connect()]);
  // what the replicas tell each other about this breaker, one entry per NOTIFY: the types it carried
  const notified: string[][] = [];
  listener.on('notification', ({ payload }) => {
    const envelopes: { message?: { type: string; data: { configId?: number } } }[] = [JSON.parse(payload ?? 'null')].flat();
    const about = envelopes.filter((envelope) => envelope.message?.data.configId === created.id).map((envelope) => envelope.message!.type);
    if (about.length > 0) notified.push(about);
  });
  await listener.query('LISTEN cbh_events');
  const lockJournal = () => locker.query('BEGIN; LOCK TABLE breaker_transitions IN SHARE MODE');
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  try {
    // the journal's insert waits behind the lock, for less than JOURNAL_WAIT_MS: the live messages wait with it
    await lockJournal();
    let heard = false;
    const stateChange = live.next('stateChange', created.id).then(() => (heard = true));
    const answer = call(`/api/circuit-breakers/${created.id}/force-open`, { method: 'POST' });
    await sleep(300);
    expect(heard).toBe(false);
    expect(notified).toEqual([]);
    await locker.query('COMMIT');
    expect((await answer).status).toBe(200);
    await stateChange;
    const moves = await spec.api.sql('SELECT to_state FROM breaker_transitions WHERE config_id = $1', [created.id]);
    expect(moves.map((move) => move.to_state)).toEqual(['OPEN']);
    // both in one NOTIFY, so each /ws socket gets them in one write
    await eventually(async () => notified.length > 0);
    expect(notified).toEqual([['stateChange', 'configUpdated']]);

    // a journal held up for longer holds the control's answer and its configUpdated for JOURNAL_WAIT_MS only
    notified.length = 0;
    await lockJournal();
    const reset = call(`/api/circuit-breakers/${created.id}/reset`, { method: 'POST' });
    const answered = await Promise.race([reset.then((response) => response.status), sleep(4000).then(() => 'no answer')]);
    expect(answered).toBe(200);
    await eventually(async () => notified.length > 0);
    expect(notified).toEqual([['configUpdated']]);
    await locker.query('COMMIT');
    await eventually(async () => notified.length > 1);
    expect(notified).toEqual([['configUpdated'], ['stateChange']]);
  } finally {
    await Promise.all([locker.end(), listener.end()]);
    live.close();
  }
});

it('names who used a manual control by name, else by role, to viewers of the journal and of the live messages: never by e-mail', async () => {
  const created = await (
    await call('/api/circuit-breakers', {
      method: 'POST',
      body: simpleBreaker('Named controls'),
    })
  ).json();
  const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
  const live = await liveMessages(viewer);
  const [{ id: operatorId }] = await spec.api.sql("SELECT id FROM users WHERE email = 'operator@example.com'");

  // the demo operator, Omar, forces it open
  const omar = await signIn(spec.api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
  const messages = Promise.all([live.next('stateChange', created.id), live.next('configUpdated', created.id)]);
  expect((await call(`/api/circuit-breakers/${created.id}/force-open`, { method: 'POST', cookie: omar })).status).toBe(200);
  const [stateChange, configUpdated] = await messages;
  live.close();
  expect(stateChange + configUpdated).not.toContain('@');
  // the operator's own screens tell their move by the account's id
  expect(JSON.parse(stateChange).data).toMatchObject({ to: 'OPEN', reason: 'forced open by Omar', actorId: operatorId });
  expect(JSON.parse(configUpdated).data.manual).toEqual({ action: 'force-open', reason: 'forced open by Omar' });

  // an account without a name (the demo admin, before it signs in) is named by its role
  await spec.api.sql("UPDATE users SET first_name = NULL, last_name = NULL WHERE email = 'admin@demo.example.com'");
  const unnamed = await signIn(spec.api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
  expect((await call(`/api/circuit-breakers/${created.id}/reset`, { method: 'POST', cookie: unnamed })).status).toBe(200);

  // the journal is written beside the answer, not before it
  let journal: { transitions: { reason: string }[] };
  let text: string;
  do {
    text = await (await call(`/api/circuit-breakers/${created.id}/transitions`, { cookie: viewer })).text();
    journal = JSON.parse(text);
  } while (journal.transitions.length < 2);
  expect(text).not.toContain('@');
  expect(journal.transitions.map((t) => t.reason)).toEqual(['reset by an administrator', 'forced open by Omar']);

  // the audit trail, for audit_access holders, still names the account by its address
  const audit = await (await call(`/api/audit?action=breaker.force-open`)).json();
  expect(audit.entries.find((entry: { targetId: string }) => entry.targetId === String(created.id))).toMatchObject({
    actorId: operatorId,
    actorEmail: 'operator@example.com',
  });
});

it('names breakers uniquely whatever the letter case: creating one under a taken name is a 409 naming it', async () => {
  const clash = await call('/api/circuit-breakers', {
    method: 'POST',
    body: simpleBreaker('payment GATEWAY'),
  });
  expect({ status: clash.status, message: (await clash.json()).message }).toEqual({
    status: 409,
    message: 'A circuit breaker named payment GATEWAY already exists',
  });
  const breakers = await (await call('/api/circuit-breakers')).json();
  expect(breakers.filter((b: { name: string }) => b.name.toLowerCase() === 'payment gateway')).toHaveLength(1);
});
