import { Client } from 'pg';
import WebSocket from 'ws';
import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, TEST_MANIFEST, type TestApi } from '../test/test-api';
import { MIGRATIONS } from './platform/database/migrations';

let api: TestApi;

const METRICS_TOKEN = 'metrics-token-for-the-tests';

beforeAll(async () => {
  api = await startTestApi({ METRICS_TOKEN }, { emptyDatabase: true });
});
afterAll(async () => {
  await api.stop();
});

const get = (path: string, init?: RequestInit) => fetch(`${api.baseUrl}${path}`, init);

describe('health', () => {
  it('reports the database as reachable and this process as a live replica', async () => {
    const response = await get('/api/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok', database: 'up', replicas: 1 });
  });

  it('applied the migrations once and recorded this process', async () => {
    const client = new Client({ connectionString: api.databaseUrl });
    await client.connect();
    const migrations = await client.query('SELECT name FROM migrations');
    const instances = await client.query('SELECT pid FROM api_instances');
    await client.end();
    expect(migrations.rows.map((r) => r.name)).toEqual(MIGRATIONS.map((Migration) => new Migration().name));
    expect(instances.rows).toEqual([{ pid: process.pid }]);
  });
});

describe('JSON errors', () => {
  it('answers a signed-out GET /api/auth/user with 401 in the error shape', async () => {
    const response = await get('/api/auth/user');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'Not signed in' });
  });

  it('answers an unknown API path with a JSON 404, not the site', async () => {
    const response = await get('/api/no-such-thing');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/json/);
    expect(await response.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('answers malformed JSON with a 400 in the error shape', async () => {
    const response = await get('/api/health', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"broken":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });

  it('tags every response with a request id, keeping a well-formed one the caller sent', async () => {
    expect((await get('/api/health')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await get('/api/health', { headers: { 'x-request-id': 'trace-42' } });
    expect(echoed.headers.get('x-request-id')).toBe('trace-42');
  });
});

describe('serving the site', () => {
  it('serves /remotes.json from the deployment manifest, revalidated on every load', async () => {
    const response = await get('/remotes.json');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.json()).toEqual(TEST_MANIFEST);
  });

  it('revalidates manifests and entries but caches hashed chunks for good', async () => {
    for (const file of ['mf-manifest.json', 'remoteEntry.js']) {
      const response = await get(`/remotes/mfe-dashboard/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
    }
    const chunk = await get('/remotes/mfe-dashboard/749.abcdef0123.js');
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get('/main.0123456789.js')).headers.get('cache-control')).toContain('immutable');
  });

  it('serves the shell for any page path, so the client router decides (including its 404)', async () => {
    for (const page of ['/', '/dashboard', '/services/validation', '/no/such/page']) {
      const response = await get(page);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(await response.text()).toContain('<div id="root">');
    }
  });

  it('never serves build output outside the remotes the manifest names', async () => {
    expect((await get('/remotes/api/main.js')).status).toBe(404);
    expect((await get('/remotes/shell/index.html')).status).toBe(404);
    expect((await get('/remotes/../api/main.js')).status).toBe(404);
  });

  it('sends a CSP that allows the federated chunks from this origin and nothing inline', async () => {
    const csp = (await get('/')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    // the domain screen's Test Connection reaches the owner's site over https, never plain http
    expect(csp).toMatch(/connect-src [^;]*https:/);
    expect(csp).not.toMatch(/connect-src [^;]*http:/);
  });
});

describe('security headers on JSON answers', () => {
  it('come on an answer, an error and a route that does not exist, with no document policy', async () => {
    const cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    for (const [path, status, init] of [
      ['/api/auth/user', 200, { headers: { cookie } }],
      ['/api/auth/user', 401, {}],
      ['/api/no-such-thing', 404, { headers: { cookie } }],
    ] as const) {
      const response = await get(path, init);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(response.headers.get('content-security-policy')).toBeNull();
    }
  });
});

describe('/ws', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  });

  function connect(withCookie: string | null = cookie, origin?: string): Promise<WebSocket> {
    const headers = { ...(withCookie ? { cookie: withCookie } : {}), ...(origin ? { origin } : {}) };
    const socket = new WebSocket(`${api.baseUrl.replace('http', 'ws')}/ws`, { headers });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(socket));
      socket.once('error', reject);
    });
  }
  const nextMessage = (socket: WebSocket, type?: string) =>
    new Promise<{ type: string; data?: unknown }>((resolve) => {
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data));
        if (type && message.type !== type) return;
        socket.off('message', onMessage);
        resolve(message);
      };
      socket.on('message', onMessage);
    });

  it('refuses an upgrade without a signed-in session with 401', async () => {
    await expect(connect(null)).rejects.toThrow('Unexpected server response: 401');
    await expect(connect('cbh.sid=s%3Aforged.signature')).rejects.toThrow('Unexpected server response: 401');
  });

  it('accepts upgrades from the site’s own pages only: another origin is refused with 403 even with a valid cookie', async () => {
    await expect(connect(cookie, 'https://evil.example')).rejects.toThrow('Unexpected server response: 403');
    await expect(connect(cookie, 'null')).rejects.toThrow('Unexpected server response: 403');
    // the same host under another scheme is another origin
    await expect(connect(cookie, api.baseUrl.replace('http:', 'https:'))).rejects.toThrow('Unexpected server response: 403');
    // the public URL's origin, and the host the upgrade was sent to (same-origin), are the site's own
    (await connect(cookie, 'http://localhost:3000')).close();
    (await connect(cookie, api.baseUrl)).close();
  });

  it('closes a session’s sockets when it signs out, and sends them nothing more', async () => {
    const session = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    const socket = await connect(session);
    const other = await connect();
    const after: string[] = [];
    const closed = new Promise<[number, string]>((resolve) => socket.once('close', (code, reason) => resolve([code, String(reason)])));
    socket.on('message', (data) => after.push(JSON.parse(String(data)).type));
    const signedOut = await fetch(`${api.baseUrl}/api/logout`, { method: 'POST', headers: { cookie: session }, redirect: 'manual' });
    expect(signedOut.status).toBe(303);
    expect(await closed).toEqual([4401, 'Signed out']);
    expect(after.filter((type) => type !== 'metricsUpdate')).toEqual([]);
    // another session of the same account keeps its socket
    const reply = nextMessage(other, 'pong');
    other.send(JSON.stringify({ type: 'ping' }));
    expect(await reply).toEqual({ type: 'pong' });
    other.close();
  });

  it('answers ping with pong', async () => {
    const socket = await connect();
    const reply = nextMessage(socket, 'pong');
    socket.send(JSON.stringify({ type: 'ping' }));
    expect(await reply).toEqual({ type: 'pong' });
    socket.close();
  });

  it('ignores frames that are not JSON or not a known message, and keeps the connection', async () => {
    const socket = await connect();
    const reply = nextMessage(socket, 'pong');
    socket.send('{not json');
    socket.send(JSON.stringify({ type: 'launchMissiles' }));
    socket.send(JSON.stringify({ type: 'ping' }));
    expect(await reply).toEqual({ type: 'pong' });
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.close();
  });

  it('pushes test results, configuration changes and state changes to clients allowed to read them', async () => {
    const socket = await connect();
    const viewer = await signIn(api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    const viewerId = (await api.sql("SELECT id FROM users WHERE email = 'viewer@example.com'"))[0].id;
    await fetch(`${api.baseUrl}/api/users/${viewerId}/permissions`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ permissions: ['dashboard_view'] }),
    });
    const blind = await connect(viewer);
    const blindMessages: string[] = [];
    blind.on('message', (data) => blindMessages.push(JSON.parse(String(data)).type));

    const testResult = nextMessage(socket, 'testResult');
    await fetch(`${api.baseUrl}/api/services/1/test`, { method: 'POST', headers: { cookie } });
    expect((await testResult).data).toMatchObject({ serviceId: 1, circuitBreakerState: expect.any(String) });

    const configUpdated = nextMessage(socket, 'configUpdated');
    const stateChange = nextMessage(socket, 'stateChange');
    await fetch(`${api.baseUrl}/api/circuit-breakers/2/force-open`, { method: 'POST', headers: { cookie } });
    expect((await configUpdated).data).toMatchObject({ configId: 2, config: { state: 'OPEN' } });
    expect((await stateChange).data).toMatchObject({
      configId: 2,
      from: 'CLOSED',
      to: 'OPEN',
      reason: 'forced open by Admin',
    });

    const metrics = await nextMessage(socket, 'metricsUpdate');
    expect((metrics.data as { stats: { configId: number; state: string }[] }).stats).toEqual(
      expect.arrayContaining([expect.objectContaining({ configId: 2, state: 'OPEN' })]),
    );
    expect(blindMessages).toEqual([]);
    socket.close();
    blind.close();
  });
});

describe('metrics', () => {
  it('serves every breaker’s state and figures from memory', async () => {
    const cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    for (let i = 0; i < 3; i++) await fetch(`${api.baseUrl}/api/services/3/test`, { method: 'POST', headers: { cookie } });
    const { stats } = await (await get('/api/metrics/latest', { headers: { cookie } })).json();
    const search = stats.find((s: { configId: number }) => s.configId === 3);
    expect(search.successCount + search.failureCount).toBe(3);
    expect(search).toMatchObject({ state: expect.any(String), replicas: { total: 1 }, latency: { p50: expect.any(Number) } });
    expect(search.latency.max).toBeGreaterThan(0);
  });

  it('answers with JSON that already counts a call whose answer came before the read was sent', async () => {
    const cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    const calls = async () => {
      const response = await get('/api/metrics/latest', { headers: { cookie } });
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const { stats } = await response.json();
      const search = stats.find((s: { configId: number }) => s.configId === 3);
      return search.successCount + search.failureCount + search.timeoutCount;
    };
    const before = await calls();
    await fetch(`${api.baseUrl}/api/services/3/test`, { method: 'POST', headers: { cookie } });
    expect(await calls()).toBe(before + 1);
  });
});

describe('API docs', () => {
  it('publishes an OpenAPI document generated from the controllers, with access rules and body schemas', async () => {
    const document = await (await get('/api/docs/openapi.json')).json();
    expect(document.openapi).toBe('3.1.0');
    const invite = document.paths['/api/users/invite'].post;
    expect(invite.description).toContain('user_management');
    expect(invite.requestBody.content['application/json'].schema.properties.role.enum).toEqual([
      'viewer',
      'operator',
      'admin',
      'super_admin',
    ]);
    expect(document.paths['/api/users/{id}/status'].patch.parameters[0]).toMatchObject({ name: 'id', in: 'path' });
    expect(document.paths['/api/audit'].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      'actor',
      'action',
      'from',
      'to',
      'page',
      'pageSize',
    ]);
    expect(document.paths['/api/health'].get.description).toBe('Open to everyone.');
    expect(document.paths['/api/tokens'].post.description).toBe(
      "Signed in with the `api_access` permission (super_admin holds all). Needs a person's session: never with an access token.",
    );
    expect(document.paths['/api/audit'].get.description).toMatch(/A session or an access token \(`Authorization: Bearer cbh_…`\)\.$/);
  });

  it('serves Swagger UI at /api/docs from local assets', async () => {
    const page = await get('/api/docs');
    expect(await page.text()).toContain('/api/docs/assets/swagger-ui-bundle.js');
    expect((await get('/api/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
    expect((await get('/api/docs/assets/..%2Fpackage.json')).status).toBe(404);
  });
});

describe('Prometheus', () => {
  it("exposes this replica's breakers in resilience4j's words, and its own figures, at /metrics to metrics_view holders", async () => {
    const cookie = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    expect((await get('/metrics')).status).toBe(401);
    const viewer = await signIn(api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    expect((await get('/metrics', { headers: { cookie: viewer } })).status).toBe(403);
    const response = await get('/metrics', { headers: { cookie } });
    expect(response.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await response.text();
    const lines = text.split('\n');
    expect(text).toContain('# TYPE resilience4j_circuitbreaker_state gauge');
    // one series per state of resilience4j's six, each once: no copy of it under another label value
    const states = lines.filter((line) => line.startsWith('resilience4j_circuitbreaker_state{name="Payment Gateway",'));
    expect(states.map((line) => /state="(\w+)"/.exec(line)![1])).toEqual([
      'closed',
      'open',
      'half_open',
      'forced_open',
      'disabled',
      'metrics_only',
    ]);
    expect(states.filter((line) => line.endsWith(' 1'))).toHaveLength(1);
    expect(text).not.toMatch(/replica="/);
    expect(text).toContain('# TYPE resilience4j_circuitbreaker_calls_seconds summary');
    expect(text).toMatch(/resilience4j_circuitbreaker_calls_seconds_count\{name="Search API",kind="successful"\} \d+/);
    expect(text).toMatch(/resilience4j_circuitbreaker_calls_total\{name="Search API",kind="failed"\} \d+/);
    expect(text).toMatch(/resilience4j_circuitbreaker_failure_rate\{name="Search API"\} -?\d/);
    // the cluster's view has names of its own
    expect(text).toMatch(/cbh_cluster_circuitbreaker_state\{name="Payment Gateway",state="closed"\} [01]/);
    expect(text).toMatch(/^cbh_cluster_replicas [1-9]/m);
    // the replica's own figures: requests by route pattern, the process's
    expect(text).toMatch(/^cbh_http_request_duration_seconds_count\{method="GET",route="\/metrics",status="403"\} 1$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^cbh_ws_connections \d+/m);
  });

  it('lets a scraper in with the metrics token, and only with the right one', async () => {
    expect((await get('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(200);
    expect((await get('/metrics', { headers: { authorization: 'Bearer not-the-token-at-all' } })).status).toBe(401);
  });
});
