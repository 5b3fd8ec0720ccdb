import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentBreaker, agentReport, openAgentStream, serviceToken } from '../api/test/agent-reports';
import { signIn, startTestApi, TEST_ADMIN, type TestApi } from '../api/test/test-api';
import { siteSecurityHeaders } from '../api/src/platform/web/security-headers';
import { NGINX, startGateway, type Gateway } from '../tools/testing/nginx-gateway';
import { REMOTE_FOLDERS } from '../tools/testing/site-layout';

/**
 * The compose gateway run for real: Debian's nginx with deploy/nginx/gateway.conf, its upstreams on loopback (a
 * static server per app with deploy/nginx/static.conf, and the API), so that what a browser gets through it is
 * compared with what the single-process mode sends.
 */
/** The site's security headers as the API sends them with its pages and files, with REMOTE_ORIGINS unset as in compose. */
async function apiSiteHeaders(): Promise<Map<string, string>> {
  const server = http.createServer((req, res) => siteSecurityHeaders([])(req, res, () => res.end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const generic = new Set(['connection', 'content-length', 'date', 'keep-alive']);
    return new Map([...response.headers].filter(([name]) => !generic.has(name)));
  } finally {
    server.close();
  }
}

/** A built site in small: the shell's page and chunk, and each remote's entry and a hashed chunk. */
function writeSite(root: string) {
  const files: Record<string, string> = {
    'shell/index.html': '<!doctype html><title>Circuit Breaker Hub</title><div id="root"></div>',
    'shell/main.0123456789.js': 'console.log("shell")',
  };
  for (const folder of REMOTE_FOLDERS) {
    files[`${folder}/remoteEntry.js`] = `var ${folder.replace('-', '_')};`;
    files[`${folder}/749.abcdef0123.js`] = 'console.log("chunk")';
  }
  for (const [file, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), body);
  }
}

const SKIPPED = 'SKIPPED: nginx is not installed (apt-get install -y nginx; .ci/run installs it)';
if (!NGINX) console.warn(`deploy/gateway-headers.spec.ts ${SKIPPED}`);
const describeWithNginx = NGINX ? describe : describe.skip;
describeWithNginx(`the compose gateway, run by nginx${NGINX ? '' : ` — ${SKIPPED}`}`, () => {
  let site: string;
  let api: TestApi;
  let nginx: Gateway;
  let gateway: string;
  let expected: Map<string, string>;

  beforeAll(async () => {
    expected = await apiSiteHeaders();
    site = mkdtempSync(path.join(tmpdir(), 'cbh-site-'));
    writeSite(site);
    api = await startTestApi();
    nginx = await startGateway({ apiUrls: [api.baseUrl], siteRoot: site });
    gateway = nginx.url;
  });

  afterAll(async () => {
    await nginx?.stop();
    await api?.stop();
    if (site) rmSync(site, { recursive: true, force: true });
  });

  it('has the API’s site headers to compare with: the CSP with frame-ancestors, and nosniff', () => {
    expect(expected.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(expected.get('x-content-type-options')).toBe('nosniff');
  });

  it.each([
    ['the shell’s page at /', '/', 200],
    ['a route of the site, answered with the shell’s page', '/circuit-breakers/7', 200],
    ['the shell’s hashed chunk', '/main.0123456789.js', 200],
    ['a remote’s entry', '/remotes/mfe-dashboard/remoteEntry.js', 200],
    ['a remote’s hashed chunk', '/remotes/mfe-patterns/749.abcdef0123.js', 200],
    ['a remote’s missing file', '/remotes/mfe-users/missing.js', 404],
  ])('sends %s with the headers the single-process mode sends, each once', async (_, url, status) => {
    const response = await fetch(`${gateway}${url}`);
    expect(response.status).toBe(status);
    for (const [name, value] of expected) expect([name, response.headers.get(name)]).toEqual([name, value]);
  });

  it('keeps the static servers’ cache rules beside them', async () => {
    expect((await fetch(`${gateway}/remotes/mfe-dashboard/749.abcdef0123.js`)).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await fetch(`${gateway}/`)).headers.get('cache-control')).toBe('no-cache');
  });

  it("passes an agent's stream through to the API, upgrade and frames", async () => {
    // signed in before the sign-in test below spends this client's attempts
    const admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
    const stream = await openAgentStream(gateway, await serviceToken(api, admin, 'through-the-gateway'));
    expect(await stream.send(agentReport('through-the-gateway', 'g-1', [agentBreaker('ledger')]))).toMatchObject({ status: 200 });
    stream.socket.close();
  });

  it('names the client to the API by the address it connected from, not by an X-Forwarded-For it sent', async () => {
    // 50 failed sign-ins per client in 15 minutes: each claims another address, all come from this one
    const attempt = (n: number) =>
      fetch(`${gateway}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${n}` },
        body: JSON.stringify({ email: `nobody${n}@example.com`, password: 'not-the-password' }),
      });
    const statuses: number[] = [];
    for (let n = 1; n <= 51; n++) statuses.push((await attempt(n)).status);
    expect(statuses.slice(0, 50).every((status) => status === 401)).toBe(true);
    expect(statuses[50]).toBe(429);
  });

  it('passes an API answer with the API’s own headers, adding none', async () => {
    const [direct, through] = await Promise.all([fetch(`${api.baseUrl}/api/health`), fetch(`${gateway}/api/health`)]);
    expect(through.status).toBe(200);
    for (const name of expected.keys()) expect([name, through.headers.get(name)]).toEqual([name, direct.headers.get(name)]);
    expect(through.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
