import { domainCheckEnv, startDomainServers, type DomainServers } from '../../../test/domain-servers';
import { eventually, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';
import { RealtimeBus } from '../../platform/bus/realtime-bus.service';
import { DomainsRepository } from '../domains.repository';

/**
 * Rounds of checks run by the API against DNS, HTTPS and HTTP servers started here on loopback. The jest process
 * cannot add the test CA to Node's trust store (NODE_EXTRA_CA_CERTS is read at start), so here certificates read
 * as untrusted; the browser-level test runs the API as its own process with the CA trusted, for the expiry alerts.
 */
let servers: DomainServers;
let api: TestApi;
let admin: string;

beforeAll(async () => {
  servers = await startDomainServers();
  api = await startTestApi(domainCheckEnv(servers, { intervalSeconds: 5, trustCa: false }));
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
}, 60_000);
afterAll(async () => {
  await api?.stop();
  await servers?.stop();
});

const call = async (path: string, method = 'GET', body?: unknown) => {
  const response = await api.call(path, { method, body, cookie: admin });
  return response.status === 204 ? null : response.json();
};
const one = async (path: string, domainId: number) => ((await call(`${path}?domainId=${domainId}`)) as { domainId: number }[])[0] as never;
/** Asks for a round now (verify makes the domain due) and waits until what it reads satisfies the test. */
async function roundUntil<T>(domainId: number, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`still not there: ${JSON.stringify(value)}`);
    await call(`/api/domains/${domainId}/verify`, 'POST');
    await new Promise((resolve) => setTimeout(resolve, 700));
    value = await read();
  }
  return value;
}
/** Waits, asking for nothing, until what `read` gives satisfies the test: for the round a last verify asked for. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`still not there: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}
const alerts = async (domainId: number) =>
  (
    (await call(`/api/domain-alerts?domainId=${domainId}`)) as { alertType: string; severity: string; status: string; message: string }[]
  ).map((alert) => `${alert.alertType} ${alert.severity} ${alert.status}`);

it('verifies ownership once the TXT record appears, reads DNS, the certificate and uptime, and raises and resolves alerts once', async () => {
  const host = `shop.${servers.suffix}`;
  const certificate = await servers.addHost(host);
  servers.addRecord(host, 'MX', `10 mail.${host}`);
  const created = await call('/api/domains', 'POST', { domain: host });
  const id = created.id as number;

  const verification = await roundUntil(
    id,
    () =>
      one('/api/domain-verifications', id) as Promise<{ status: string; reason: string | null; recordName: string; recordValue: string }>,
    (value) => value.status === 'failed',
  );
  expect(verification).toMatchObject({ reason: 'no TXT record found', recordName: `_cbhub-verify.${host}` });
  expect((await call(`/api/domains/${id}`)).status).toBe('pending');
  // until ownership is proven nothing else is looked at: no records, no certificate, no uptime
  expect(await alerts(id)).toEqual(['verification_failed high open']);
  // the alert says why, as the verification record does
  expect(((await call(`/api/domain-alerts?domainId=${id}`)) as { message: string }[])[0]!.message).toBe(
    `Ownership of ${host} could not be verified: no TXT record found`,
  );
  expect(await call(`/api/dns-records?domainId=${id}`)).toEqual([]);
  expect(await call(`/api/ssl-certificates?domainId=${id}`)).toEqual([]);
  expect((await one('/api/domain-monitoring', id)) as { lastCheck: string | null }).toMatchObject({ lastCheck: null });

  servers.addRecord(verification.recordName, 'TXT', verification.recordValue);
  await roundUntil(
    id,
    () => call(`/api/domains/${id}`),
    (domain) => domain.status === 'active',
  );
  // a verify asked for after the round that proved ownership makes the record 'verifying' again until its own round
  await until(
    () => one('/api/domain-verifications', id) as Promise<{ status: string }>,
    (value) => value.status !== 'verifying',
  );
  expect(await one('/api/domain-verifications', id)).toMatchObject({ status: 'verified' });
  expect(await alerts(id)).toContain('verification_failed high resolved');

  const records = (await call(`/api/dns-records?domainId=${id}`)) as { recordType: string; value: string; isActive: boolean }[];
  expect(records.filter((record) => record.isActive).map((record) => `${record.recordType} ${record.value}`)).toEqual(
    expect.arrayContaining(['A 127.0.0.1', `MX 10 mail.${host}`]),
  );
  const tls = (await one('/api/ssl-certificates', id)) as { status: string; issuedAt: string; expiresAt: string };
  expect(tls.status).toBe('invalid'); // untrusted here: see the note at the top
  expect(new Date(tls.expiresAt).getTime()).toBe(Math.floor(certificate!.notAfter.getTime() / 1000) * 1000);
  expect(await alerts(id)).toContain('certificate_invalid critical open');

  // down for three checks in a row, then back
  servers.setSite(host, { status: 503 });
  await roundUntil(
    id,
    () => alerts(id),
    (list) => list.includes('site_down critical open'),
  );
  expect((await call(`/api/domains/${id}`)).status).toBe('down');
  // the screens reread when an alert arrives: the round's status is saved before its alerts are announced
  const steps: string[] = [];
  const repository = api.app.get(DomainsRepository);
  const endRound = repository.endRound.bind(repository);
  const ending = jest.spyOn(repository, 'endRound').mockImplementation(async (domainId, round) => {
    const ended = await endRound(domainId, round);
    if (domainId === id) steps.push(`status ${round.status}`);
    return ended;
  });
  const announced = api.app.get(RealtimeBus).subscribe(({ message }) => {
    if (message.type === 'domainAlert' && message.data.alert.domainId === id)
      steps.push(`alert ${message.data.alert.alertType} ${message.data.alert.status}`);
  });
  servers.setSite(host, { status: 200 });
  await roundUntil(
    id,
    () => alerts(id),
    (list) => list.includes('site_down critical resolved'),
  );
  ending.mockRestore();
  announced();
  expect((await call(`/api/domains/${id}`)).status).toBe('active');
  expect(steps.indexOf('status active')).toBeGreaterThanOrEqual(0);
  expect(steps.indexOf('status active')).toBeLessThan(steps.indexOf('alert site_down resolved'));
  const monitoring = (await one('/api/domain-monitoring', id)) as { lastStatus: string; uptimePercentage: number; responseTime: number };
  expect(monitoring.lastStatus).toBe('up');
  expect(monitoring.uptimePercentage).toBeGreaterThan(0);
  expect(monitoring.uptimePercentage).toBeLessThan(100);

  // each alert was raised once, whatever the number of rounds
  const raised = (await alerts(id)).map((alert) => alert.split(' ')[0]);
  expect(raised.filter((type) => type === 'site_down')).toHaveLength(1);
  expect(raised.filter((type) => type === 'certificate_invalid')).toHaveLength(1);
  expect(raised.filter((type) => type === 'verification_failed')).toHaveLength(1);

  // the mail exchanger named in its MX record is a subdomain it has
  expect(((await call(`/api/subdomains?domainId=${id}`)) as { name: string }[]).map((sub) => sub.name)).toEqual([`mail.${host}`]);

  // a round that changes no status and no alert is still announced (with others of its second), its check in the
  // detail's recent checks
  const heard: number[] = [];
  const unsubscribe = api.app.get(RealtimeBus).subscribe(({ message }) => {
    if (message.type === 'domainsChecked') heard.push(...message.data.domainIds);
  });
  try {
    const before = (await call(`/api/domains/${id}`)).recentChecks as { checkedAt: string; status: string; responseTime: number | null }[];
    heard.length = 0;
    // the first announcement may close a round whose check was already read above; the second cannot
    await roundUntil(
      id,
      async () => heard.filter((domainId) => domainId === id).length,
      (count) => count >= 2,
    );
    const after = (await call(`/api/domains/${id}`)).recentChecks as typeof before;
    expect(after.length).toBeGreaterThan(before.length);
    expect(after.at(-1)).toMatchObject({ status: 'up', responseTime: expect.any(Number) });
    const times = after.map((check) => Date.parse(check.checkedAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  } finally {
    unsubscribe();
  }
}, 90_000);

it('a record gone since the last round stays listed as inactive', async () => {
  const host = `blog.${servers.suffix}`;
  await servers.addHost(host);
  servers.addRecord(host, 'TXT', 'v=spf1 -all');
  const { id } = await call('/api/domains', 'POST', { domain: host });
  const verification = (await one('/api/domain-verifications', id)) as { recordName: string; recordValue: string };
  servers.addRecord(verification.recordName, 'TXT', verification.recordValue);
  const txt = async () =>
    ((await call(`/api/dns-records?domainId=${id}`)) as { recordType: string; value: string; isActive: boolean }[]).filter(
      (record) => record.recordType === 'TXT' && !record.value.startsWith('cbhub-verify='),
    );
  await roundUntil(id, txt, (list) => list.some((record) => record.isActive));
  servers.removeRecord(host, 'TXT');
  expect(await roundUntil(id, txt, (list) => list.length === 1 && !list[0]!.isActive)).toEqual([
    expect.objectContaining({ value: 'v=spf1 -all', isActive: false }),
  ]);
}, 60_000);

it('wakes every replica when a domain is added or falls due sooner, and not when a round moves it later', async () => {
  const heard: string[] = [];
  const unsubscribe = api.app.get(RealtimeBus).subscribeInternal('domains-due', ({ origin }) => heard.push(origin));
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
  try {
    const { id } = await call('/api/domains', 'POST', { domain: `wake.${servers.suffix}` });
    expect(await eventually(async () => heard.length === 1)).toBe(true);
    expect(heard).toEqual(['database']);
    // a round's end moves it an interval later: nothing to wake for
    await api.sql("UPDATE domains SET next_check_at = now() + interval '1 hour' WHERE id = $1", [id]);
    await settle();
    expect(heard).toHaveLength(1);
    // asked for now (verify, an import): every replica looks at once rather than at its next idle look
    await call(`/api/domains/${id}/verify`, 'POST');
    expect(await eventually(async () => heard.length === 2)).toBe(true);
  } finally {
    unsubscribe();
  }
});
