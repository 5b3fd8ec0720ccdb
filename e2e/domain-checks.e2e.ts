import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from './support/test';
import { Client } from 'pg';
import { domainCheckEnv, startDomainServers, type DomainServers } from '../api/test/domain-servers';
import { ACCOUNTS_ENV, ADMIN, SCRATCH, startSite, type Site } from './support/server';
import { freePort } from '../tools/testing/free-port.mjs';

/**
 * The domain engine as it runs in production: two API processes on one database, each with the test CA in
 * Node's trust store (NODE_EXTRA_CA_CERTS), checking domains served by DNS, HTTPS and HTTP servers on loopback.
 */
const DATA_DIR = path.join(SCRATCH, 'domains-data');
const INTERVAL_SECONDS = 5;

let servers: DomainServers;
const sites: Site[] = [];
let databaseUrl: string;

test.beforeAll(async () => {
  servers = await startDomainServers();
  const env = { ...ACCOUNTS_ENV, ...domainCheckEnv(servers, { intervalSeconds: INTERVAL_SECONDS, trustCa: true }) };
  const PG_PORT = String(await freePort());
  sites.push(await startSite({ port: await freePort(), env: { ...env, DATA_DIR, EMBEDDED_PG_PORT: PG_PORT } }));
  const password = readFileSync(path.join(DATA_DIR, 'pg-password'), 'utf8').trim();
  databaseUrl = `postgres://postgres:${password}@127.0.0.1:${PG_PORT}/circuit_breaker_hub`;
  sites.push(await startSite({ port: await freePort(), env: { ...env, DATABASE_URL: databaseUrl } }));
});

test.afterAll(async () => {
  for (const site of sites) await site.stop();
  await servers?.stop();
});

async function signedIn(request: APIRequestContext, site: Site) {
  const response = await request.post(`${site.url}/api/login`, { form: { email: ADMIN.email, password: ADMIN.password }, maxRedirects: 0 });
  expect(response.status()).toBe(303);
}

const DAY_MS = 86_400_000;

test('two API processes check every domain once per interval, read certificates through the trust store and raise each alert once', async ({
  request,
}) => {
  const now = Date.now();
  await servers.addHost(`soon.${servers.suffix}`, {
    certificate: { notBefore: new Date(now - 80 * DAY_MS), notAfter: new Date(now + 5 * DAY_MS) },
  });
  await servers.addHost(`old.${servers.suffix}`, {
    certificate: { notBefore: new Date(now - 90 * DAY_MS), notAfter: new Date(now - DAY_MS) },
  });
  const fresh = await servers.addHost(`fresh.${servers.suffix}`, { certificate: { issuer: 'acme-ca' } });
  await signedIn(request, sites[0]!);
  const [first] = sites;
  const ids: Record<string, number> = {};
  for (const name of ['soon', 'old', 'fresh']) {
    const response = await request.post(`${first!.url}/api/domains`, { data: { domain: `${name}.${servers.suffix}` } });
    expect(response.status()).toBe(201);
    ids[name] = (await response.json()).id;
    const verification = (await (await request.get(`${first!.url}/api/domain-verifications?domainId=${ids[name]}`)).json())[0];
    servers.addRecord(verification.recordName, 'TXT', verification.recordValue);
  }
  // the second process answers for the same data
  await signedIn(request, sites[1]!);
  const read = async (pathname: string) => (await request.get(`${sites[1]!.url}${pathname}`)).json();
  // certificate alerts (a first round may run before the TXT record is published and flag the verification)
  const alertsOf = async (id: number) =>
    ((await read(`/api/domain-alerts?domainId=${id}`)) as { alertType: string; severity: string; status: string }[])
      .filter((alert) => alert.alertType.startsWith('certificate_'))
      .map((alert) => `${alert.alertType} ${alert.severity} ${alert.status}`);

  await expect.poll(async () => (await read(`/api/domains/${ids.soon}`)).status, { timeout: 30_000 }).toBe('active');
  const soonCertificate = (await read(`/api/ssl-certificates?domainId=${ids.soon}`))[0];
  expect(soonCertificate).toMatchObject({ status: 'active' });
  expect(new Date(soonCertificate.expiresAt).getTime()).toBeGreaterThan(now + 4 * DAY_MS);
  // five days left: the 7-day threshold only, not also 14 and 21
  await expect.poll(() => alertsOf(ids.soon!), { timeout: 20_000 }).toEqual(['certificate_expiring critical open']);

  await expect.poll(async () => (await read(`/api/ssl-certificates?domainId=${ids.old}`))[0]?.status, { timeout: 20_000 }).toBe('expired');
  await expect.poll(() => alertsOf(ids.old!), { timeout: 20_000 }).toEqual(['certificate_expired critical open']);

  // each domain's checks begin once its own TXT record has been seen: wait for this one's certificate too
  await expect.poll(async () => (await read(`/api/ssl-certificates?domainId=${ids.fresh}`))[0]?.status, { timeout: 20_000 }).toBe('active');
  const freshCertificate = (await read(`/api/ssl-certificates?domainId=${ids.fresh}`))[0];
  expect(freshCertificate).toMatchObject({ status: 'active', autoRenew: true });
  expect(new Date(freshCertificate.expiresAt).getTime()).toBe(Math.floor(fresh!.notAfter.getTime() / 1000) * 1000);
  expect(await alertsOf(ids.fresh!)).toEqual([]);

  // let several intervals pass: still one alert each, and never two checks of a domain within one interval
  await new Promise((resolve) => setTimeout(resolve, 3 * INTERVAL_SECONDS * 1000));
  expect(await alertsOf(ids.soon!)).toEqual(['certificate_expiring critical open']);
  expect(await alertsOf(ids.old!)).toEqual(['certificate_expired critical open']);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ domain_id: number; gaps: number[] }>(
      `SELECT domain_id, array_agg(gap ORDER BY checked_at) AS gaps FROM (
         SELECT domain_id, checked_at, extract(epoch FROM checked_at - lag(checked_at) OVER (PARTITION BY domain_id ORDER BY checked_at))::float AS gap
         FROM domain_check_results) g WHERE gap IS NOT NULL GROUP BY domain_id`,
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.gaps.length).toBeGreaterThanOrEqual(2);
      // a round run twice (once per process) would leave a gap near zero. Rounds keep a steady cadence, each due one
      // interval after the last was due, and checked_at is written once a round's DNS, TLS and HTTP checks are done:
      // a round that started or ran late followed by one on time leaves a gap shorter than the interval by that much
      // (3.9 s of 5 on a loaded machine), so half an interval is the line between late and twice
      expect(Math.min(...row.gaps)).toBeGreaterThan(INTERVAL_SECONDS * 0.5);
    }
  } finally {
    await db.end();
  }
});
