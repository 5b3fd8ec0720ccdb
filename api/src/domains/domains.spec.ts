import type { DomainDetailView, DomainSummaryView, DomainView, ServerMessage } from '@cbh/contracts';
import { DEMO_PASSWORD, signIn } from '../../test/test-api';
import { RealtimeBus } from '../platform/bus/realtime-bus.service';
import { domainsApiForThisFile, EXPIRED_CERTIFICATE } from './domains.test-kit';

const { spec, call, findingsRepository, checksRepository, alertsRepository, dnsRecordsOf, addDomain, siteDown } = domainsApiForThisFile();

/** Every domain table's row count, to show a refused request changed nothing. */
async function counts() {
  const [row] = await spec.api.sql(
    `SELECT (SELECT count(*) FROM domains)::int AS domains, (SELECT count(*) FROM domain_verifications)::int AS verifications,
            (SELECT count(*) FROM domain_monitoring)::int AS monitoring, (SELECT count(*) FROM audit_entries)::int AS audit`,
  );
  return row;
}

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
    await siteDown(other.id, `down-${other.id}`);
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
    const first = await siteDown(domain.id, 'a');
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
    await siteDown(domain.id, 'x');

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
    expect(await siteDown(domain.id, 'y')).toBeNull();
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
