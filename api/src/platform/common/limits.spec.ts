import WebSocket from 'ws';
import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';
import { simpleBreaker } from '../../../test/breaker-bodies';

/** The API with small limits, so each can be reached in a test. */
let api: TestApi;
let admin: string;
beforeAll(async () => {
  api = await startTestApi({
    MAX_BODY_KB: '1',
    LOAD_TESTS_PER_USER: '2',
    LOAD_TESTS_TOTAL: '3',
    WS_CONNECTIONS_PER_SESSION: '2',
    WS_MAX_FRAME_BYTES: '512',
  });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await api.stop();
});

it('refuses a request body over MAX_BODY_KB with a 413 naming the limit', async () => {
  const response = await api.call('/api/services', {
    method: 'POST',
    cookie: admin,
    body: { name: 'x'.repeat(2000), endpoint: 'https://example.com', failureRate: 0, averageResponseTime: 1 },
  });
  expect(response.status).toBe(413);
  expect(await response.json()).toEqual({
    statusCode: 413,
    error: 'Payload Too Large',
    message: 'The request body is larger than 1 KB (MAX_BODY_KB)',
  });
});

it('bounds the load tests running at once, per account and overall, with a 429 naming the limit', async () => {
  const operator = await signIn(api.baseUrl, 'operator@example.com', DEMO_PASSWORD);
  const extra = await (
    await api.call('/api/circuit-breakers', {
      method: 'POST',
      cookie: admin,
      body: simpleBreaker('Fourth'),
    })
  ).json();
  const start = (cookie: string, configId: number) =>
    api.call('/api/test-sessions', { method: 'POST', cookie, body: { configId, failureRate: 0, requestRate: 1, duration: 1 } });
  const started: number[] = [];
  for (const configId of [1, 2]) {
    const response = await start(admin, configId);
    expect(response.status).toBe(201);
    started.push((await response.json()).id);
  }
  const mine = await start(admin, 3);
  expect(mine.status).toBe(429);
  expect((await mine.json()).message).toMatch(
    /^You already run 2 load tests, the most one account may run at once \(LOAD_TESTS_PER_USER\)/,
  );
  const third = await start(operator, 3);
  expect(third.status).toBe(201);
  started.push((await third.json()).id);
  const overall = await start(operator, extra.id);
  expect(overall.status).toBe(429);
  expect((await overall.json()).message).toMatch(/^3 load tests are running, the most the site runs at once \(LOAD_TESTS_TOTAL\)/);
  for (const id of started) await api.call(`/api/test-sessions/${id}/stop`, { method: 'POST', cookie: admin });
  expect((await start(operator, extra.id)).status).toBe(201);
});

it.each(['/api/circuit-breakers', '/api/services'])(
  'answers %s a page at a time, linking the next, and refuses a page over 1,000',
  async (path) => {
    const ids = async (url: string) => ((await (await api.call(url, { cookie: admin })).json()) as { id: number }[]).map((row) => row.id);
    const all = await ids(path);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const first = await api.call(`${path}?limit=2`, { cookie: admin });
    expect(((await first.json()) as { id: number }[]).map((row) => row.id)).toEqual(all.slice(0, 2));
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')![1]!;
    expect(next).toBe(`${path}?after=${all[1]}&limit=2`);
    expect(await ids(next)).toEqual(all.slice(2, 4));
    // the last page is not full and links nowhere
    const last = await api.call(`${path}?after=${all.at(-1)! - 1}&limit=2`, { cookie: admin });
    expect([last.headers.get('link'), ((await last.json()) as unknown[]).length]).toEqual([null, 1]);
    const tooMany = await api.call(`${path}?limit=1001`, { cookie: admin });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).message).toContain('must be at most 1000');
  },
);

describe('/ws', () => {
  const connect = () =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(`${api.baseUrl.replace('http', 'ws')}/ws`, { headers: { cookie: admin } });
      socket.once('open', () => resolve(socket));
      socket.once('error', reject);
    });

  it('caps the sockets one session holds at WS_CONNECTIONS_PER_SESSION', async () => {
    const sockets = [await connect(), await connect()];
    await expect(connect()).rejects.toThrow('Unexpected server response: 429');
    sockets[0]!.close();
    await new Promise((resolve) => sockets[0]!.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    sockets.push(await connect());
    await Promise.all(sockets.slice(1).map((socket) => new Promise((resolve) => (socket.once('close', resolve), socket.close()))));
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('closes a socket that sends a frame over WS_MAX_FRAME_BYTES (1009)', async () => {
    const socket = await connect();
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'ping', data: 'x'.repeat(1000) }));
    expect(await closed).toBe(1009);
  });
});
