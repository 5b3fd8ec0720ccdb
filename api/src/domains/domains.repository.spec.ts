import { randomUUID } from 'node:crypto';
import type { DomainStatus } from '@cbh/contracts';
import { DataSource } from 'typeorm';
import { fakeSocket } from '../breakers/realtime/fake-socket.test-kit';
import { RealtimeGateway } from '../breakers/realtime/realtime.gateway';
import { domainsApiForThisFile, EXPIRED_CERTIFICATE, minutesAgo } from './domains.test-kit';

const { spec, call, repository, findingsRepository, checksRepository, alertsRepository, dnsRecordsOf, addDomain, siteDown } =
  domainsApiForThisFile();

describe('the repository the checks use', () => {
  it('replaces DNS records: seen ones active with their TTL, missing ones kept inactive', async () => {
    const domain = await addDomain('dns');
    const name = domain.domain;
    const longTxt = 'v=DKIM1; p=' + 'A'.repeat(6000);
    await findingsRepository().replaceDnsRecords(domain.id, [
      { recordType: 'A', name, value: '192.0.2.1', ttl: 300 },
      { recordType: 'TXT', name, value: 'v=spf1 -all', ttl: 300 },
      { recordType: 'TXT', name, value: longTxt, ttl: 300 },
    ]);
    await findingsRepository().replaceDnsRecords(domain.id, [
      { recordType: 'A', name, value: '192.0.2.1', ttl: 600 },
      { recordType: 'A', name, value: '192.0.2.1', ttl: 600 },
      { recordType: 'MX', name, value: `10 mail.${name}`, ttl: 3600 },
      { recordType: 'TXT', name, value: longTxt, ttl: 300 },
    ]);
    const summary = (await dnsRecordsOf(domain.id)).map((r) => [r.recordType, r.value.slice(0, 20), r.ttl, r.isActive]);
    expect(summary).toEqual([
      ['A', '192.0.2.1', 600, true],
      ['MX', `10 mail.${name}`.slice(0, 20), 3600, true],
      ['TXT', longTxt.slice(0, 20), 300, true],
      ['TXT', 'v=spf1 -all', 300, false],
    ]);
    await findingsRepository().replaceDnsRecords(domain.id, [{ recordType: 'TXT', name, value: 'v=spf1 -all', ttl: 120 }]);
    const again = await dnsRecordsOf(domain.id);
    expect(again.filter((r) => r.isActive).map((r) => r.value)).toEqual(['v=spf1 -all']);
    expect(again).toHaveLength(4);
  });

  it('records checks: the raw result, per-minute buckets added to, runs of failures and slow checks, and uptime over 30 days', async () => {
    const domain = await addDomain('uptime');
    const minute = new Date(Math.floor(minutesAgo(10).getTime() / 60_000) * 60_000);
    const at = (seconds: number) => new Date(minute.getTime() + seconds * 1000);

    // Older than the window: it must not count in the percentage.
    await checksRepository().recordCheck(domain.id, {
      status: 'down',
      responseTimeMs: null,
      checkedAt: new Date(Date.now() - 40 * 86_400_000),
    });
    await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 100, checkedAt: at(0) });
    await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 300, checkedAt: at(20) });
    const down = await checksRepository().recordCheck(domain.id, {
      status: 'down',
      responseTimeMs: null,
      error: 'timeout',
      checkedAt: at(40),
    });
    expect(down).toMatchObject({ lastStatus: 'down', consecutiveFailures: 1, failingSince: at(40), uptimePercentage: 66.67 });
    const downAgain = await checksRepository().recordCheck(domain.id, { status: 'down', responseTimeMs: null, checkedAt: at(60) });
    expect(downAgain).toMatchObject({ consecutiveFailures: 2, failingSince: at(40), uptimePercentage: 50 });

    const buckets = await spec.api.sql(
      'SELECT minute, checks, failures, total_response_ms FROM domain_check_buckets WHERE domain_id = $1 ORDER BY minute',
      [domain.id],
    );
    expect(buckets.slice(1)).toEqual([
      { minute, checks: 3, failures: 1, total_response_ms: 400 },
      { minute: at(60), checks: 1, failures: 1, total_response_ms: 0 },
    ]);
    const [raw] = await spec.api.sql('SELECT count(*)::int AS n FROM domain_check_results WHERE domain_id = $1', [domain.id]);
    expect(raw.n).toBe(5);

    let slow = await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 2500, checkedAt: at(80) });
    expect(slow).toMatchObject({ lastStatus: 'up', responseTimeMs: 2500, consecutiveFailures: 0, failingSince: null, consecutiveSlow: 1 });
    slow = await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 2600, checkedAt: at(100) });
    slow = await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 2700, checkedAt: at(120) });
    expect(slow).toMatchObject({ consecutiveSlow: 3, slowSince: at(80), lastCheck: at(120), uptimePercentage: 71.43 });
    const fast = await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 90 });
    expect(fast).toMatchObject({ consecutiveSlow: 0, slowSince: null, uptimePercentage: 75 });
  });

  it('opens an alert once per dedupe key, even when replicas race, and not again once resolved', async () => {
    const domain = await addDomain('once');
    const alert = {
      alertType: 'certificate_expiring' as const,
      severity: 'high' as const,
      message: `The certificate of ${domain.domain} expires in 13 days`,
      dedupeKey: 'certificate-expiring-14:DD',
    };
    const opened = await Promise.all(Array.from({ length: 5 }, () => alertsRepository().openAlert(domain.id, alert)));
    expect(opened.filter(Boolean)).toHaveLength(1);
    expect(opened.find(Boolean)).toMatchObject({ domainId: domain.id, status: 'open', dedupeKey: alert.dedupeKey, resolvedAt: null });
    await alertsRepository().resolveAlertsExcept(domain.id, ['certificate_expiring'], []);
    expect(await alertsRepository().openAlert(domain.id, alert)).toBeNull();
    expect(
      await alertsRepository().openAlert(domain.id, { ...alert, dedupeKey: 'certificate-expiring-7:DD', severity: 'critical' }),
    ).toMatchObject({
      severity: 'critical',
    });
  });

  it('resolves the open alerts of the types asked, except those still seen, in one statement, and returns them', async () => {
    const domain = await addDomain('auto-resolve');
    const first = await siteDown(domain.id, 'site-down:1');
    const second = await siteDown(domain.id, 'site-down:2');
    const other = await alertsRepository().openAlert(domain.id, {
      alertType: 'slow_response',
      severity: 'medium',
      message: 'slow',
      dedupeKey: 'slow:1',
    });
    const expiring = await alertsRepository().openAlert(domain.id, {
      alertType: 'certificate_expiring',
      severity: 'high',
      message: 'expiring',
      dedupeKey: 'certificate-expiring-14:DD',
    });
    // a round that still sees the certificate's condition keeps its alert, and resolves the outages that ended
    const resolved = await alertsRepository().resolveAlertsExcept(
      domain.id,
      ['site_down', 'certificate_expiring'],
      ['certificate-expiring-14:DD'],
    );
    expect(resolved.map((a) => a.id).sort()).toEqual([first!.id, second!.id].sort());
    expect(resolved.every((a) => a.status === 'resolved' && a.resolvedAt instanceof Date)).toBe(true);
    expect(await alertsRepository().resolveAlertsExcept(domain.id, ['site_down'], [])).toEqual([]);
    expect(await alertsRepository().resolveAlertsExcept(domain.id, [], [])).toEqual([]);
    const still = await spec.api.sql('SELECT id, status FROM domain_alerts WHERE id = ANY($1::int[]) ORDER BY id', [
      [other!.id, expiring!.id],
    ]);
    expect(still).toEqual([
      { id: other!.id, status: 'open' },
      { id: expiring!.id, status: 'open' },
    ]);
  });

  it('keeps at most 500 subdomains of a domain', async () => {
    const domain = await addDomain('many-subdomains');
    const names = (from: number, count: number) => Array.from({ length: count }, (_, i) => `host-${from + i}.${domain.domain}`);
    expect(await findingsRepository().addSubdomains(domain.id, names(0, 450))).toHaveLength(450);
    expect(await findingsRepository().addSubdomains(domain.id, names(450, 50))).toHaveLength(50);
    expect(await findingsRepository().addSubdomains(domain.id, names(500, 10))).toEqual([]);
    const [row] = await spec.api.sql('SELECT count(*)::int AS n FROM subdomains WHERE domain_id = $1', [domain.id]);
    expect(row.n).toBe(500);
  });

  it('tells at the end of each round whether what the screens show beyond the latest check changed since the last', async () => {
    const domain = await addDomain('shown');
    const repo = repository();
    // a round of a replica that no longer holds the lease still records what it found
    const end = async (status: DomainStatus = 'pending', domainId = domain.id) =>
      (await repo.endRound(domainId, { owner: randomUUID(), intervalSeconds: 60, status }))?.shownChanged;
    expect(await end()).toBe(true);
    expect(await end()).toBe(false);
    // a check alone changes nothing shown here
    await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 80 });
    expect(await end()).toBe(false);
    await findingsRepository().replaceDnsRecords(domain.id, [{ recordType: 'A', name: domain.domain, value: '192.0.2.1', ttl: 300 }]);
    expect(await end()).toBe(true);
    // a resolver counting a TTL down is not a change
    await findingsRepository().replaceDnsRecords(domain.id, [{ recordType: 'A', name: domain.domain, value: '192.0.2.1', ttl: 240 }]);
    expect(await end()).toBe(false);
    await findingsRepository().saveCertificate(domain.id, EXPIRED_CERTIFICATE);
    expect(await end()).toBe(true);
    await findingsRepository().saveCertificate(domain.id, EXPIRED_CERTIFICATE);
    expect(await end()).toBe(false);
    // the status the round found is recorded by the same statement, and is a change shown
    expect(await end('down')).toBe(true);
    expect((await call(`/api/domains/${domain.id}`).then((r) => r.json())).status).toBe('down');
    expect(await end('down')).toBe(false);
    await findingsRepository().addSubdomains(domain.id, [`www.${domain.domain}`]);
    // two rounds ending together (held back by a lock on the row, then let go at once): the row is locked before the
    // digest is read, so the second reads the first's and one of them says so
    const holder = spec.api.app.get(DataSource).createQueryRunner();
    await holder.startTransaction();
    await holder.query('SELECT 1 FROM domains WHERE id = $1 FOR UPDATE', [domain.id]);
    const both = Promise.all([end('down'), end('down')]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await holder.commitTransaction();
    await holder.release();
    expect((await both).sort()).toEqual([false, true]);
    expect(await end('active', 999_999)).toBeUndefined();
  });

  it('prunes raw results after 24 hours and leaves the buckets to the retention setting', async () => {
    const domain = await addDomain('prune');
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 10, checkedAt: hoursAgo(91 * 24) });
    await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 10, checkedAt: hoursAgo(25) });
    await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 10, checkedAt: hoursAgo(1) });
    const pruned = await checksRepository().pruneOld();
    expect(pruned.results).toBeGreaterThanOrEqual(2);
    const [left] = await spec.api.sql(
      `SELECT (SELECT count(*) FROM domain_check_results WHERE domain_id = $1)::int AS results,
              (SELECT count(*) FROM domain_check_buckets WHERE domain_id = $1)::int AS buckets`,
      [domain.id],
    );
    expect(left).toEqual({ results: 1, buckets: 3 });
  });

  it('saves verification outcomes, certificates, registration, subdomains and status', async () => {
    const domain = await addDomain('saves');
    const repo = repository();
    expect(await findingsRepository().saveVerification(domain.id, { status: 'failed', reason: 'no TXT record found' })).toMatchObject({
      status: 'failed',
      reason: 'no TXT record found',
      verifiedAt: null,
      checkedAt: expect.any(Date),
    });
    const verified = await findingsRepository().saveVerification(domain.id, { status: 'verified', reason: null });
    expect(verified).toMatchObject({ status: 'verified', verifiedAt: expect.any(Date) });
    expect((await findingsRepository().saveVerification(domain.id, { status: 'verified', reason: null }))!.verifiedAt).toEqual(
      verified!.verifiedAt,
    );

    await spec.api.sql(`UPDATE domains SET status = 'down' WHERE id = $1`, [domain.id]);

    await repo.saveRegistration(domain.id, { registrar: 'Example Registrar', expiresAt: new Date('2027-01-01T00:00:00Z') });
    expect(await (await call(`/api/domains/${domain.id}`)).json()).toMatchObject({
      status: 'down',
      registrar: 'Example Registrar',
      expiresAt: '2027-01-01T00:00:00.000Z',
    });

    const first = await findingsRepository().saveCertificate(domain.id, {
      certificateType: 'Test CA',
      status: 'invalid',
      reason: 'self-signed certificate',
      fingerprint: 'EE',
      issuedAt: null,
      expiresAt: null,
      autoRenew: false,
    });
    const second = await findingsRepository().saveCertificate(domain.id, { ...first!, status: 'active', reason: null, autoRenew: true });
    expect(second).toMatchObject({ id: first!.id, status: 'active', reason: null, autoRenew: true });

    expect((await findingsRepository().addSubdomains(domain.id, [`a.${domain.domain}`, `b.${domain.domain}`])).map((s) => s.name)).toEqual([
      `a.${domain.domain}`,
      `b.${domain.domain}`,
    ]);
    expect((await findingsRepository().addSubdomains(domain.id, [`b.${domain.domain}`, `c.${domain.domain}`])).map((s) => s.name)).toEqual([
      `c.${domain.domain}`,
    ]);
  });

  it('leases due rounds to one replica each, and schedules the next when the owner completes it', async () => {
    const domain = await addDomain('lease');
    const repo = repository();
    const [a, b] = [randomUUID(), randomUUID()];
    const [claimedA, claimedB] = await Promise.all([repo.claimDue(a, 1000, 30), repo.claimDue(b, 1000, 30)]);
    const idsA = claimedA.map((claimed) => claimed.domain.id);
    const idsB = claimedB.map((claimed) => claimed.domain.id);
    expect(idsA.filter((id) => idsB.includes(id))).toEqual([]);
    expect([...idsA, ...idsB]).toContain(domain.id);
    const [owner, other] = idsA.includes(domain.id) ? [a, b] : [b, a];

    expect((await repo.claimDue(other, 1000, 30)).map((claimed) => claimed.domain.id)).not.toContain(domain.id);
    // the lease's claim read whether the domain is verified
    expect([...claimedA, ...claimedB].find((claimed) => claimed.domain.id === domain.id)?.verified).toBe(false);
    expect(await repo.endRound(domain.id, { owner: other, intervalSeconds: 60, status: 'pending' })).toMatchObject({ held: false });
    expect((await spec.api.sql(`SELECT check_owner FROM domains WHERE id = $1`, [domain.id]))[0].check_owner).toBe(owner);
    expect(await repo.endRound(domain.id, { owner, intervalSeconds: 60, status: 'pending' })).toMatchObject({ held: true });
    const [row] = await spec.api.sql(
      `SELECT check_owner, check_lease_until, next_check_at > now() + interval '50 seconds' AS later FROM domains WHERE id = $1`,
      [domain.id],
    );
    expect(row).toEqual({ check_owner: null, check_lease_until: null, later: true });

    // A lease that lapsed (its replica died) lets another replica take the round.
    await spec.api.sql(
      `UPDATE domains SET next_check_at = now(), check_owner = $2, check_lease_until = now() - interval '1 second' WHERE id = $1`,
      [domain.id, owner],
    );
    const again = await repo.claimDue(other, 1000, 30);
    expect(again.map((claimed) => claimed.domain.id)).toContain(domain.id);
  });
});

it('lists every domain endpoint in the API docs, with its access rule and body schema', async () => {
  const document = await (await spec.api.call('/api/docs/openapi.json')).json();
  const routes = Object.entries(document.paths as Record<string, Record<string, { description: string }>>)
    .filter(([path]) => /\/api\/(domains|domain-|ssl-certificates|dns-records|subdomains)/.test(path))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation.description]),
    );
  expect(routes.map(([route]) => route).sort()).toEqual(
    [
      'GET /api/domains',
      'POST /api/domains',
      'GET /api/domains/{id}',
      'GET /api/domain-summary',
      'DELETE /api/domains/{id}',
      'POST /api/domains/{id}/verify',
      'GET /api/domain-verifications',
      'GET /api/ssl-certificates',
      'PATCH /api/ssl-certificates/{id}',
      'GET /api/dns-records',
      'GET /api/subdomains',
      'GET /api/domain-monitoring',
      'GET /api/domain-alerts',
      'POST /api/domain-alerts/{id}/resolve',
      'POST /api/domains/bulk',
    ].sort(),
  );
  // many at once needs bulk_operations too (and domain_management, which the route checks for its items)
  const bulk = (route: string) => route === 'POST /api/domains/bulk';
  expect(routes.every(([route, description]) => description!.includes(bulk(route!) ? 'bulk_operations' : 'domain_management'))).toBe(true);
  expect(document.paths['/api/domains'].post.requestBody.content['application/json'].schema.required).toEqual(['domain']);
  expect(document.paths['/api/ssl-certificates/{id}'].patch.requestBody.content['application/json'].schema.properties.autoRenew.type).toBe(
    'boolean',
  );
});

it('sends domain messages over /ws only to holders of domain_management', () => {
  const gateway = new RealtimeGateway({} as never, {} as never, {} as never, {} as never, {} as never, {} as never, {} as never);
  const account = (permissions: string[]) => ({
    user: { id: randomUUID(), email: 'u@example.com', role: 'operator', permissions, isActive: true },
    key: randomUUID(),
    expiresAt: null,
  });
  const manager = fakeSocket();
  const breakersOnly = fakeSocket();
  gateway.handleConnection(manager as never, manager.upgrade(account(['domain_management'])));
  gateway.handleConnection(breakersOnly as never, breakersOnly.upgrade(account(['circuit_breaker_view', 'dashboard_view'])));
  const alert = {
    id: 1,
    domainId: 2,
    alertType: 'site_down',
    severity: 'critical',
    status: 'open',
    triggeredAt: '2025-01-01T00:00:00.000Z',
    message: 'down',
    resolvedAt: null,
  } as const;
  gateway.deliver({ type: 'domainUpdated', data: { domainId: 2 } });
  gateway.deliver({ type: 'domainAlert', data: { alert, domain: 'shop.example.test' } });
  gateway.deliver({ type: 'domainsChecked', data: { domainIds: [2, 3] } });
  expect(manager.sent.map((frame) => JSON.parse(frame).type)).toEqual(['domainUpdated', 'domainAlert', 'domainsChecked']);
  expect(breakersOnly.sent).toEqual([]);
});
