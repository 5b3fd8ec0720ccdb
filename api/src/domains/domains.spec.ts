import { randomUUID } from 'node:crypto';
import type { DomainDetailView, DomainStatus, DomainSummaryView, DomainView, ServerMessage } from '@cbh/contracts';
import { DataSource } from 'typeorm';
import { apiForThisFile, DEMO_PASSWORD, signIn } from '../../test/test-api';
import { RealtimeBus } from '../platform/bus/realtime-bus.service';
import { fakeSocket } from '../breakers/realtime/fake-socket.test-kit';
import { RealtimeGateway } from '../breakers/realtime/realtime.gateway';
import { DomainsRepository } from './domains.repository';
import { DnsRecordEntity } from './entities/dns-record.entity';
import { DomainAlertsRepository } from './domain-alerts.repository';
import { DomainChecksRepository } from './domain-checks.repository';
import { DomainFindingsRepository } from './domain-findings.repository';
import { DomainCheckRunner } from './scheduling/domain-check-runner.service';

const spec = apiForThisFile();
// These tests write what rounds would find through the repository; rounds of their own (against an unreachable
// DNS server here) would add verification alerts under them. Rounds are tested in scheduling/domain-rounds.spec.ts.
beforeAll(() => spec.api.app.get(DomainCheckRunner).onApplicationShutdown());

const call = (path: string, options: { method?: string; body?: unknown; cookie?: string | null } = {}) =>
  spec.api.call(path, { cookie: spec.admin, ...options });
const repository = () => spec.api.app.get(DomainsRepository);
const findingsRepository = () => spec.api.app.get(DomainFindingsRepository);
const checksRepository = () => spec.api.app.get(DomainChecksRepository);
const alertsRepository = () => spec.api.app.get(DomainAlertsRepository);
/** A domain's DNS records as the repository left them, in the order the detail page lists them. */
const dnsRecordsOf = (domainId: number) =>
  spec.api.app
    .get(DataSource)
    .getRepository(DnsRecordEntity)
    .find({ where: { domainId }, order: { recordType: 'ASC', name: 'ASC', value: 'ASC' } });

let counter = 0;
/** A new domain through the API, with a name no other test uses. */
async function addDomain(prefix = 'site'): Promise<DomainView> {
  const response = await call('/api/domains', { method: 'POST', body: { domain: `${prefix}-${++counter}.example.test` } });
  expect(response.status).toBe(201);
  return response.json();
}

/** Every domain table's row count, to show a refused request changed nothing. */
async function counts() {
  const [row] = await spec.api.sql(
    `SELECT (SELECT count(*) FROM domains)::int AS domains, (SELECT count(*) FROM domain_verifications)::int AS verifications,
            (SELECT count(*) FROM domain_monitoring)::int AS monitoring, (SELECT count(*) FROM audit_entries)::int AS audit`,
  );
  return row;
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

const EXPIRED_CERTIFICATE = {
  certificateType: 'Test CA',
  status: 'expired' as const,
  reason: null,
  fingerprint: 'CC:DD',
  issuedAt: new Date('2024-01-01T00:00:00Z'),
  expiresAt: new Date('2024-04-01T00:00:00Z'),
  autoRenew: false,
};

describe('adding a domain', () => {
  it('normalises the name: trimmed, lower case, IDN to punycode; pending, with no registration known yet', async () => {
    const shop = await call('/api/domains', { method: 'POST', body: { domain: ' Shop.Example.TEST ' } });
    expect(shop.status).toBe(201);
    expect(await shop.json()).toMatchObject({ domain: 'shop.example.test', status: 'pending', registrar: null, expiresAt: null });

    const books = await call('/api/domains', { method: 'POST', body: { domain: 'bücher.example.test' } });
    expect(books.status).toBe(201);
    expect((await books.json()).domain).toBe('xn--bcher-kva.example.test');
  });

  it('gives the domain a random verification token, its TXT record, an uptime entry, and a round due at once', async () => {
    const domain = await addDomain();
    const [row] = await spec.api.sql('SELECT verification_token, next_check_at <= now() AS due FROM domains WHERE id = $1', [domain.id]);
    expect(row.verification_token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(row.due).toBe(true);

    const verifications = await (await call(`/api/domain-verifications?domainId=${domain.id}`)).json();
    expect(verifications).toEqual([
      {
        id: expect.any(Number),
        domainId: domain.id,
        recordName: `_cbhub-verify.${domain.domain}`,
        recordValue: `cbhub-verify=${row.verification_token}`,
        status: 'pending',
        reason: null,
        checkedAt: null,
        verifiedAt: null,
      },
    ]);
    const other = await addDomain();
    const [otherRow] = await spec.api.sql('SELECT verification_token FROM domains WHERE id = $1', [other.id]);
    expect(otherRow.verification_token).not.toBe(row.verification_token);

    expect(await (await call(`/api/domain-monitoring?domainId=${domain.id}`)).json()).toEqual([
      {
        id: expect.any(Number),
        domainId: domain.id,
        monitoringType: 'uptime',
        lastStatus: null,
        responseTime: null,
        uptimePercentage: null,
        lastCheck: null,
      },
    ]);
  });

  it('refuses a malformed domain with a 400 naming the field, and changes nothing', async () => {
    const before = await counts();
    for (const [domain, message] of [
      ['https://shop.example.test', 'domain: must be a bare domain name, without a scheme such as https://'],
      ['shop.example.test/cart', 'domain: must be a bare domain name, without a path'],
      ['shop.example.test:8443', 'domain: must be a bare domain name, without a port'],
      ['user@shop.example.test', 'domain: must be a bare domain name, without user info'],
      ['localhost', 'domain: must have at least two labels, such as example.com'],
      ['shop..example.test', 'domain: must not contain an empty label (two dots in a row)'],
      ['-shop.example.test', "domain: label '-shop' must be 1–63 letters, digits or hyphens, not starting or ending with a hyphen"],
      ['shop_1.example.test', "domain: label 'shop_1' must be 1–63 letters, digits or hyphens, not starting or ending with a hyphen"],
      [
        `${'a'.repeat(64)}.example.test`,
        `domain: label '${'a'.repeat(64)}' must be 1–63 letters, digits or hyphens, not starting or ending with a hyphen`,
      ],
      [`${'a'.repeat(60)}.`.repeat(4) + 'example.test', 'domain: must be at most 253 characters'],
      ['192.168.0.1', 'domain: must be a domain name, not an IP address'],
      ['shop example.test', 'domain: is not a valid domain name'],
      ['   ', 'domain: is required'],
      [42, 'domain: must be a domain name'],
    ] as const) {
      const response = await call('/api/domains', { method: 'POST', body: { domain } });
      expect([domain, response.status]).toEqual([domain, 400]);
      expect((await response.json()).message).toBe(message);
    }
    for (const [body, message] of [
      [{}, 'domain: is required'],
      [{ domain: 'shop.example.test', owner: 'me' }, 'unknown field owner'],
    ] as const) {
      const response = await call('/api/domains', { method: 'POST', body });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(message);
    }
    expect(await counts()).toEqual(before);
  });

  it('answers a duplicate, however it is written, with a 409 and changes nothing', async () => {
    await call('/api/domains', { method: 'POST', body: { domain: 'dup.example.test' } });
    const before = await counts();
    const response = await call('/api/domains', { method: 'POST', body: { domain: '  DUP.Example.Test.' } });
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe('Domain dup.example.test is already registered');
    expect(await counts()).toEqual(before);
  });

  it('tells every screen that a domain changed', async () => {
    const messages: ServerMessage[] = [];
    const unsubscribe = spec.api.app.get(RealtimeBus).subscribe(({ message }) => messages.push(message));
    try {
      const domain = await addDomain('announced');
      const since = Date.now();
      while (!messages.some((m) => m.type === 'domainUpdated' && m.data.domainId === domain.id) && Date.now() - since < 5000) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(messages).toContainEqual({ type: 'domainUpdated', data: { domainId: domain.id } });
    } finally {
      unsubscribe();
    }
  });
});

describe('reading domains', () => {
  it('lists domains newest first, bounded by limit', async () => {
    const older = await addDomain('older');
    const newer = await addDomain('newer');
    const all: DomainView[] = await (await call('/api/domains')).json();
    expect(all.findIndex((d) => d.id === newer.id)).toBeLessThan(all.findIndex((d) => d.id === older.id));
    expect(await (await call('/api/domains?limit=1')).json()).toEqual([newer]);
    const refused = await call('/api/domains?limit=0');
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe('limit: must be at least 1');
  });

  it('shows one domain with all its records', async () => {
    const domain = await addDomain('detail');
    await findingsRepository().saveCertificate(domain.id, {
      certificateType: "Let's Encrypt R11",
      status: 'active',
      reason: null,
      fingerprint: 'AA:BB',
      issuedAt: new Date('2025-01-01T00:00:00Z'),
      expiresAt: new Date('2025-04-01T00:00:00Z'),
      autoRenew: true,
    });
    await findingsRepository().replaceDnsRecords(domain.id, [{ recordType: 'A', name: domain.domain, value: '192.0.2.10', ttl: 300 }]);
    await findingsRepository().addSubdomains(domain.id, [`www.${domain.domain}`]);
    await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 120 });
    await alertsRepository().openAlert(domain.id, {
      alertType: 'certificate_expiring',
      severity: 'medium',
      message: `The certificate of ${domain.domain} expires in 20 days`,
      dedupeKey: 'certificate-expiring-21:AA:BB',
    });

    const response = await call(`/api/domains/${domain.id}`);
    expect(response.status).toBe(200);
    const detail: DomainDetailView = await response.json();
    expect(detail).toMatchObject({
      ...domain,
      verification: { domainId: domain.id, recordName: `_cbhub-verify.${domain.domain}`, status: 'pending' },
      certificate: {
        domainId: domain.id,
        certificateType: "Let's Encrypt R11",
        status: 'active',
        issuedAt: '2025-01-01T00:00:00.000Z',
        expiresAt: '2025-04-01T00:00:00.000Z',
        autoRenew: true,
        autoRenewOverridden: false,
      },
      dnsRecords: [{ domainId: domain.id, recordType: 'A', name: domain.domain, value: '192.0.2.10', ttl: 300, isActive: true }],
      subdomains: [{ domainId: domain.id, name: `www.${domain.domain}` }],
      monitoring: [{ domainId: domain.id, monitoringType: 'uptime', lastStatus: 'up', responseTime: 120, uptimePercentage: 100 }],
      alerts: [{ domainId: domain.id, alertType: 'certificate_expiring', severity: 'medium', status: 'open', resolvedAt: null }],
      recentChecks: [{ status: 'up', responseTime: 120, error: null, checkedAt: expect.any(String) }],
    });

    for (const path of ['/api/ssl-certificates', '/api/dns-records', '/api/subdomains', '/api/domain-alerts']) {
      const rows = await (await call(`${path}?domainId=${domain.id}`)).json();
      expect([path, rows.length]).toEqual([path, 1]);
    }
    expect((await call('/api/domains/999999')).status).toBe(404);
    expect((await (await call('/api/domains/abc')).json()).message).toBe('id: must be a domain id');
  });

  it("carries the domain's last 60 uptime checks, oldest first", async () => {
    const domain = await addDomain('checks');
    const start = Date.now() - 70 * 60_000;
    for (let i = 0; i < 62; i++) {
      await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 100 + i, checkedAt: new Date(start + i * 60_000) });
    }
    const { recentChecks } = (await (await call(`/api/domains/${domain.id}`)).json()) as DomainDetailView;
    expect(recentChecks).toHaveLength(60);
    expect(recentChecks.map((check) => check.responseTime)).toEqual(Array.from({ length: 60 }, (_, i) => 102 + i));
  });

  it('counts the figures over every domain and names the earliest added verified domain as the primary one', async () => {
    const summary = async () => (await (await call('/api/domain-summary')).json()) as DomainSummaryView;
    const before = await summary();
    const oldest = await addDomain('primary');
    // added before every other domain of this file, so the primary one once it is verified
    await spec.api.sql(`UPDATE domains SET created_at = '2001-01-01' WHERE id = $1`, [oldest.id]);
    const other = await addDomain('counted');
    await spec.api.sql(`UPDATE domains SET status = 'active' WHERE id = $1`, [oldest.id]);
    await findingsRepository().saveCertificate(other.id, { ...EXPIRED_CERTIFICATE, status: 'active' });
    await alertsRepository().openAlert(other.id, {
      alertType: 'site_down',
      severity: 'critical',
      message: 'down',
      dedupeKey: `down-${other.id}`,
    });
    const resolved = await alertsRepository().openAlert(other.id, {
      alertType: 'slow_response',
      severity: 'medium',
      message: 'slow',
      dedupeKey: `slow-${other.id}`,
    });
    await alertsRepository().resolveAlert(resolved!.id);

    const after = await summary();
    expect({
      totalDomains: after.totalDomains - before.totalDomains,
      activeDomains: after.activeDomains - before.activeDomains,
      activeCertificates: after.activeCertificates - before.activeCertificates,
      openAlerts: after.openAlerts - before.openAlerts,
    }).toEqual({ totalDomains: 2, activeDomains: 1, activeCertificates: 1, openAlerts: 1 });
    expect(after.primaryDomainId).not.toBe(oldest.id);

    await findingsRepository().saveVerification(oldest.id, { status: 'verified', reason: null });
    expect((await summary()).primaryDomainId).toBe(oldest.id);
    // still the primary one while its owner has it checked again
    expect((await call(`/api/domains/${oldest.id}/verify`, { method: 'POST' })).status).toBe(202);
    expect((await summary()).primaryDomainId).toBe(oldest.id);
    await findingsRepository().saveVerification(oldest.id, { status: 'failed', reason: 'no TXT record found' });
    expect((await summary()).primaryDomainId).not.toBe(oldest.id);
    expect((await call('/api/domain-summary', { cookie: null })).status).toBe(401);
  });

  it('lists alerts newest first', async () => {
    const domain = await addDomain('alerts');
    const first = await alertsRepository().openAlert(domain.id, {
      alertType: 'site_down',
      severity: 'critical',
      message: 'down',
      dedupeKey: 'a',
    });
    await spec.api.sql(`UPDATE domain_alerts SET triggered_at = now() - interval '1 hour' WHERE id = $1`, [first!.id]);
    const second = await alertsRepository().openAlert(domain.id, {
      alertType: 'slow_response',
      severity: 'medium',
      message: 'slow',
      dedupeKey: 'b',
    });
    const alerts = await (await call(`/api/domain-alerts?domainId=${domain.id}`)).json();
    expect(alerts.map((a: { id: number }) => a.id)).toEqual([second!.id, first!.id]);
  });
});

describe('changing domains', () => {
  it('deletes a domain with all its records', async () => {
    const domain = await addDomain('deleted');
    await findingsRepository().saveCertificate(domain.id, {
      certificateType: 'Test CA',
      status: 'active',
      reason: null,
      fingerprint: null,
      issuedAt: null,
      expiresAt: null,
      autoRenew: false,
    });
    await findingsRepository().replaceDnsRecords(domain.id, [{ recordType: 'TXT', name: domain.domain, value: 'hello', ttl: 60 }]);
    await findingsRepository().addSubdomains(domain.id, [`api.${domain.domain}`]);
    await checksRepository().recordCheck(domain.id, { status: 'down', responseTimeMs: null, error: 'refused' });
    await alertsRepository().openAlert(domain.id, { alertType: 'site_down', severity: 'critical', message: 'down', dedupeKey: 'x' });

    expect((await call(`/api/domains/${domain.id}`, { method: 'DELETE' })).status).toBe(204);
    const [left] = await spec.api.sql(
      `SELECT (SELECT count(*) FROM domains WHERE id = $1)::int + (SELECT count(*) FROM domain_verifications WHERE domain_id = $1)::int
            + (SELECT count(*) FROM ssl_certificates WHERE domain_id = $1)::int + (SELECT count(*) FROM dns_records WHERE domain_id = $1)::int
            + (SELECT count(*) FROM subdomains WHERE domain_id = $1)::int + (SELECT count(*) FROM domain_monitoring WHERE domain_id = $1)::int
            + (SELECT count(*) FROM domain_check_results WHERE domain_id = $1)::int + (SELECT count(*) FROM domain_check_buckets WHERE domain_id = $1)::int
            + (SELECT count(*) FROM domain_alerts WHERE domain_id = $1)::int AS rows`,
      [domain.id],
    );
    expect(left.rows).toBe(0);
    expect((await call(`/api/domains/${domain.id}`, { method: 'DELETE' })).status).toBe(404);

    // Writes of a check that was running when the domain went do nothing.
    expect(await checksRepository().recordCheck(domain.id, { status: 'up', responseTimeMs: 5 })).toBeNull();
    expect(
      await alertsRepository().openAlert(domain.id, { alertType: 'site_down', severity: 'critical', message: 'down', dedupeKey: 'y' }),
    ).toBeNull();
    await findingsRepository().replaceDnsRecords(domain.id, [{ recordType: 'A', name: 'x', value: '192.0.2.1', ttl: 1 }]);
    expect(await dnsRecordsOf(domain.id)).toEqual([]);
    expect(await findingsRepository().saveVerification(domain.id, { status: 'verified', reason: null })).toBeNull();
  });

  it('starts a verification: verifying, and the round due now', async () => {
    const domain = await addDomain('verify');
    await spec.api.sql(`UPDATE domains SET next_check_at = now() + interval '1 hour' WHERE id = $1`, [domain.id]);
    const response = await call(`/api/domains/${domain.id}/verify`, { method: 'POST' });
    expect(response.status).toBe(202);
    expect(await response.json()).toMatchObject({ domainId: domain.id, status: 'verifying', recordName: `_cbhub-verify.${domain.domain}` });
    const [row] = await spec.api.sql('SELECT next_check_at <= now() AS due FROM domains WHERE id = $1', [domain.id]);
    expect(row.due).toBe(true);
    expect((await call('/api/domains/999999/verify', { method: 'POST' })).status).toBe(404);
  });

  it('resolves an open alert once; resolving it again is a 409', async () => {
    const domain = await addDomain('resolve');
    const alert = await alertsRepository().openAlert(domain.id, {
      alertType: 'verification_failed',
      severity: 'high',
      message: `Verification of ${domain.domain} failed`,
      dedupeKey: 'verification-failed:1',
    });
    const response = await call(`/api/domain-alerts/${alert!.id}/resolve`, { method: 'POST' });
    expect(response.status).toBe(200);
    const resolved = await response.json();
    expect(resolved).toMatchObject({ id: alert!.id, status: 'resolved', resolvedAt: expect.any(String) });

    const again = await call(`/api/domain-alerts/${alert!.id}/resolve`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(`Alert ${alert!.id} is already resolved`);
    expect((await call('/api/domain-alerts/999999/resolve', { method: 'POST' })).status).toBe(404);
  });

  it("sets a certificate's autoRenew by hand, which later checks keep", async () => {
    const domain = await addDomain('renew');
    const findings = {
      certificateType: "Let's Encrypt R10",
      status: 'active' as const,
      reason: null,
      fingerprint: 'CC',
      issuedAt: null,
      expiresAt: null,
      autoRenew: true,
    };
    const certificate = await findingsRepository().saveCertificate(domain.id, findings);
    const response = await call(`/api/ssl-certificates/${certificate!.id}`, { method: 'PATCH', body: { autoRenew: false } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: certificate!.id, autoRenew: false, autoRenewOverridden: true });

    expect(await findingsRepository().saveCertificate(domain.id, findings)).toMatchObject({ autoRenew: false, autoRenewOverridden: true });

    const refused = await call(`/api/ssl-certificates/${certificate!.id}`, { method: 'PATCH', body: { autoRenew: 'yes' } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe('autoRenew: must be true or false');
    expect((await call('/api/ssl-certificates/999999', { method: 'PATCH', body: { autoRenew: true } })).status).toBe(404);
  });

  it('audits every change', async () => {
    const rows = await spec.api.sql(
      `SELECT DISTINCT action FROM audit_entries WHERE action LIKE 'domain%' OR action LIKE 'ssl-certificate%'`,
    );
    expect(rows.map((row) => row.action).sort()).toEqual([
      'domain-alert.resolve',
      'domain.create',
      'domain.delete',
      'domain.verify',
      'ssl-certificate.update',
    ]);
    const [created] = await spec.api.sql(
      `SELECT actor_email, target_type, after FROM audit_entries WHERE action = 'domain.create' LIMIT 1`,
    );
    expect(created).toMatchObject({ actor_email: 'root@example.com', target_type: 'domain', after: { status: 'pending' } });
  });

  it('is only for holders of domain_management', async () => {
    const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
    expect((await call('/api/domains', { cookie: viewer })).status).toBe(403);
    const before = await counts();
    expect((await call('/api/domains', { method: 'POST', cookie: viewer, body: { domain: 'viewer.example.test' } })).status).toBe(403);
    expect(await counts()).toEqual(before);
    const admin = await signIn(spec.api.baseUrl, 'admin@demo.example.com', DEMO_PASSWORD);
    expect((await call('/api/domains', { cookie: admin })).status).toBe(200);
  });
});

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
    const first = await alertsRepository().openAlert(domain.id, {
      alertType: 'site_down',
      severity: 'critical',
      message: 'down',
      dedupeKey: 'site-down:1',
    });
    const second = await alertsRepository().openAlert(domain.id, {
      alertType: 'site_down',
      severity: 'critical',
      message: 'down',
      dedupeKey: 'site-down:2',
    });
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
