import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect, test, type WebSocket as PageSocket } from './support/test';
import { startGatewaySite, type GatewaySite } from './support/gateway-site';
import { signIn } from './support/sign-in';
import { ADMIN } from './support/server';
import { DEFAULT_BODY_BYTES, LARGE_BODY_ROUTES } from '../tools/testing/site-layout';

/**
 * What only the real gateway shows: Debian's nginx running deploy/nginx/gateway.conf and static.conf in front of two
 * production API replicas and the built site, as docker-compose.yml arranges them.
 */
test.describe.configure({ mode: 'serial' });

let site: GatewaySite;
test.beforeAll(async () => {
  site = await startGatewaySite();
});
test.afterAll(async () => {
  await site?.stop();
});

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * An HTTP request as it goes on the wire (no decompression), from a chosen loopback address. A body is sent after
 * `Expect: 100-continue` is answered, so a server refusing it by its length answers before any of it is written; a
 * refusal that comes while the body is being written (the connection then breaks) still counts as the answer.
 */
function rawRequest(
  url: string,
  {
    method = 'GET',
    headers = {},
    body,
    localAddress,
  }: { method?: string; headers?: Record<string, string>; body?: Buffer | string; localAddress?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let answer: RawAnswer | undefined;
    const request = http.request(
      url,
      { method, headers: body ? { ...headers, expect: '100-continue' } : headers, localAddress },
      (response) => {
        answer = { status: response.statusCode!, headers: response.headers, body: Buffer.alloc(0) };
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ ...answer!, body: Buffer.concat(chunks) }));
        response.on('error', () => resolve({ ...answer!, body: Buffer.concat(chunks) }));
      },
    );
    request.on('error', (error) => (answer ? resolve(answer) : reject(error)));
    if (body) request.on('continue', () => request.end(body));
    else request.end();
  });
}

/**
 * The upstream that answered each request for one path, from the gateway's access log (`<status> <upstreams>
 * <request line>`; the upstreams are listed comma-separated when one was passed over, the last one answered).
 */
const upstreamsOf = (requestPath: string) =>
  site.gateway
    .accessLog()
    .map((line) => /^\d{3} (.+) [A-Z]+ (\S+) HTTP\/[\d.]+$/.exec(line))
    .filter((match) => match && match[2] === requestPath && match[1] !== '-')
    .map((match) => match![1]!.split(', ').at(-1)!);

const replicaAddresses = () => site.replicas.map((replica) => new URL(replica.url).host);

test('pages and remotes come from the static servers; /remotes.json, /api and /ws from the API replicas', async ({ page }) => {
  await signIn(page, ADMIN, site.url);
  await page.goto(`${site.url}/dashboard`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
  await expect(page.getByTestId('live-status')).toHaveText('Live');

  const replicas = replicaAddresses();
  // the visitor's /remotes.json is the API's (pins and canaries are decided there), the remote's files the static server's
  await expect.poll(() => upstreamsOf('/remotes.json')).not.toEqual([]);
  expect(upstreamsOf('/remotes.json').every((upstream) => replicas.includes(upstream))).toBe(true);
  const manifest = upstreamsOf('/remotes/mfe-dashboard/mf-manifest.json');
  expect(manifest).not.toEqual([]);
  expect(manifest.some((upstream) => replicas.includes(upstream))).toBe(false);
  expect(upstreamsOf('/api/auth/user').every((upstream) => replicas.includes(upstream))).toBe(true);
  // the page's /ws is carried to one replica
  expect(await site.wsCarrier()).toBeGreaterThanOrEqual(0);
});

test('a remote’s hashed chunk comes compressed and immutable; its manifest and entry revalidate', async () => {
  const folder = path.join(site.staticRoot, 'mfe-dashboard');
  const chunk = readdirSync(folder).find((file) => /\.[0-9a-f]{8,}\.js$/.test(file) && readdirSync(folder).includes(`${file}.gz`))!;
  const url = `${site.url}/remotes/mfe-dashboard/${chunk}`;

  const gzipped = await rawRequest(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
  expect(gzipped.status).toBe(200);
  expect(gzipped.headers['content-encoding']).toBe('gzip');
  expect(gzipped.headers.vary).toMatch(/accept-encoding/i);
  expect(gzipped.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  // the build's own .gz, sent as it is rather than compressed again per request
  expect(gzipped.body.equals(readFileSync(path.join(folder, `${chunk}.gz`)))).toBe(true);

  const plain = await rawRequest(url, {});
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.equals(readFileSync(path.join(folder, chunk)))).toBe(true);

  for (const file of ['mf-manifest.json', 'remoteEntry.js']) {
    const answer = await rawRequest(`${site.url}/remotes/mfe-dashboard/${file}`, { headers: { 'accept-encoding': 'gzip' } });
    expect([file, answer.status, answer.headers['cache-control']]).toEqual([file, 200, 'no-cache']);
    expect(answer.headers['content-encoding']).toBe('gzip');
  }
});

test('the API sees the client’s own address and scheme, never ones the client claims', async () => {
  // a client on another loopback address claims to forward for someone else, over https
  const claims = { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https', 'content-type': 'application/json' };
  const signIn = await rawRequest(`${site.url}/api/login`, {
    method: 'POST',
    headers: claims,
    body: JSON.stringify(ADMIN),
    localAddress: '127.0.0.5',
  });
  expect(signIn.status).toBe(200);
  const setCookie = String(signIn.headers['set-cookie']);
  // the gateway says the request came over http, so the session cookie is not marked for https only
  expect(setCookie).not.toMatch(/;\s*secure/i);
  const cookie = setCookie.split(';')[0]!;

  const sessions = await rawRequest(`${site.url}/api/sessions`, { headers: { cookie }, localAddress: '127.0.0.5' });
  const current = (JSON.parse(String(sessions.body)) as { current: boolean; address: string | null }[]).find((entry) => entry.current);
  // TRUST_PROXY=loopback takes the gateway's X-Forwarded-For, which names whoever connected to the gateway
  expect(current?.address).toBe('127.0.0.5');
});

test('a replica shut down for a redeploy closes /ws as going away: the page reconnects through the gateway at once', async ({ page }) => {
  test.setTimeout(120_000);
  const sockets: { socket: PageSocket; createdAt: number; closedAt?: number }[] = [];
  page.on('websocket', (socket) => {
    const entry: (typeof sockets)[number] = { socket, createdAt: Date.now() };
    sockets.push(entry);
    socket.on('close', () => (entry.closedAt = Date.now()));
  });
  await signIn(page, ADMIN, site.url);
  await page.goto(`${site.url}/circuit-breakers`);
  await expect(page.getByTestId('live-status')).toHaveText('Live');
  const index = await site.wsCarrier();
  const survivor = site.replicas[1 - index]!;
  const before = sockets.at(-1)!;

  // a rolling redeploy: SIGTERM, the replica drains and exits, and comes back on its port
  await site.replicas[index]!.stop('SIGTERM');
  await expect.poll(() => before.closedAt).toBeDefined();
  await expect.poll(() => sockets.length).toBeGreaterThan(sockets.indexOf(before) + 1);
  const after = sockets.at(-1)!;
  expect(after.createdAt - before.closedAt!).toBeLessThanOrEqual(3000);
  await expect(page.getByTestId('live-status')).toHaveText('Live');
  await expect.poll(() => site.gateway.openConnectionsTo(survivor.url)).toBe(1);
  test
    .info()
    .annotations.push({ type: 'measured', description: `reconnected ${after.createdAt - before.closedAt!} ms after the going-away close` });

  const restarted = await site.restartReplica(index);
  // the gateway sends to the restarted replica again once its pause after the refusals is over
  await expect
    .poll(
      async () => {
        await fetch(`${site.url}/api/health`);
        return upstreamsOf('/api/health').at(-1);
      },
      { timeout: 15_000 },
    )
    .toBe(new URL(restarted.url).host);
});

test('request bodies as large as the API takes on each route pass the gateway; one byte more is a 413 in the API’s shape', async () => {
  test.setTimeout(120_000);
  // …/check shares …/versions' location and limit: one 54 MB route is enough
  const limits = [
    ['/api/circuit-breakers', DEFAULT_BODY_BYTES] as const,
    ...LARGE_BODY_ROUTES.filter(([route]) => !route.endsWith('/check')),
  ];
  const bodyOf = (bytes: number) => `{"x":"${'a'.repeat(bytes - 8)}"}`;
  for (const [route, limit] of limits) {
    const post = (base: string, bytes: number) =>
      rawRequest(`${base}${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodyOf(bytes) });
    // at the limit: the API answers (no session: 401), through the gateway as directly
    const atLimit = await post(site.url, limit);
    expect([route, atLimit.status]).toEqual([route, (await post(site.replicas[0]!.url, limit)).status]);
    expect(atLimit.status).not.toBe(413);
    // one byte over: refused by both, the gateway's refusal in the API's error shape
    const over = await post(site.url, limit + 1);
    expect([route, over.status]).toEqual([route, 413]);
    expect(JSON.parse(String(over.body))).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    expect((await post(site.replicas[0]!.url, limit + 1)).status).toBe(413);
  }
});
