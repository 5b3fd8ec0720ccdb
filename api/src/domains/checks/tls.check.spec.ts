import net from 'node:net';
import { parseTargetPolicy, type TargetPolicy } from '../../platform/outbound/outbound-http';
import { startDomainServers, unusedPort, type DomainServers } from '../../../test/domain-servers';
import { createDnsResolver, type DnsResolver } from './dns-resolver';
import { certificateTypeOf, checkTls, inferAutoRenew, type TlsCheckResult, type TlsCheckSettings } from './tls.check';

const DAY_MS = 86_400_000;
const LOOPBACK: TargetPolicy = parseTargetPolicy('127.0.0.0/8');

describe('TLS certificate check (against an HTTPS server on loopback)', () => {
  let servers: DomainServers;
  let resolver: DnsResolver;
  let settings: TlsCheckSettings;
  const name = (label: string) => `${label}.${servers.suffix}`;

  beforeAll(async () => {
    servers = await startDomainServers();
    resolver = createDnsResolver(servers.dnsServer, { timeoutMs: 500, tries: 1 });
    settings = { resolver, policy: LOOPBACK, port: servers.https.port, timeoutMs: 2000, ca: servers.caPem };
  });
  afterAll(() => servers.stop());

  const certificateOf = (result: TlsCheckResult) => {
    if (result.status === 'unreachable' || !result.certificate) throw new Error(`no certificate: ${JSON.stringify(result)}`);
    return result.certificate;
  };

  it('reads an active certificate: issuer, dates, subject names, not auto-renewed', async () => {
    const issued = await servers.addHost(name('valid'));
    const result = await checkTls(name('valid'), settings);
    expect(result).toMatchObject({ status: 'active', address: '127.0.0.1' });
    const certificate = certificateOf(result);
    expect(certificate).toMatchObject({
      certificateType: servers.caOrganisation,
      issuedAt: issued!.notBefore,
      expiresAt: issued!.notAfter,
      altNames: [name('valid')],
      autoRenew: false,
    });
    expect(certificate.issuer).toContain('O=CBHub Test CA');
    expect(certificate.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('sees a renewed certificate at the next check: the checks share one TLS context, never a session', async () => {
    await servers.addHost(name('renewed'), { certificate: { notAfter: new Date(Date.now() + 3 * DAY_MS) } });
    const before = certificateOf(await checkTls(name('renewed'), settings));
    const renewed = await servers.addHost(name('renewed'), { certificate: { notAfter: new Date(Date.now() + 90 * DAY_MS) } });
    const after = certificateOf(await checkTls(name('renewed'), settings));
    expect(after.fingerprint256).not.toBe(before.fingerprint256);
    expect(after.expiresAt).toEqual(renewed!.notAfter);
  });

  it('keeps a certificate that ends in 5 days active', async () => {
    const notAfter = new Date(Date.now() + 5 * DAY_MS);
    await servers.addHost(name('soon'), { certificate: { notAfter } });
    const result = await checkTls(name('soon'), settings);
    expect(result.status).toBe('active');
    expect(certificateOf(result).expiresAt).toEqual(new Date(Math.floor(notAfter.getTime() / 1000) * 1000));
  });

  it('infers auto-renewal from an ACME issuer', async () => {
    await servers.addHost(name('acme'), { certificate: { issuer: 'acme-ca' } });
    const result = await checkTls(name('acme'), settings);
    expect(result.status).toBe('active');
    expect(certificateOf(result)).toMatchObject({ certificateType: servers.acmeOrganisation, autoRenew: true });
  });

  it('reports an expired certificate with its dates', async () => {
    const notBefore = new Date(Date.now() - 100 * DAY_MS);
    const notAfter = new Date(Date.now() - DAY_MS);
    const issued = await servers.addHost(name('expired'), { certificate: { notBefore, notAfter } });
    const result = await checkTls(name('expired'), settings);
    expect(result.status).toBe('expired');
    expect(certificateOf(result)).toMatchObject({ issuedAt: issued!.notBefore, expiresAt: issued!.notAfter });
  });

  it('reports a self-signed certificate as invalid, still reading it', async () => {
    await servers.addHost(name('selfsigned'), { certificate: { issuer: 'self' } });
    const result = await checkTls(name('selfsigned'), settings);
    expect(result).toMatchObject({ status: 'invalid', reason: 'self-signed' });
    expect(certificateOf(result).certificateType).toBe(name('selfsigned'));
  });

  it('reports a certificate for another host as a hostname mismatch', async () => {
    await servers.addHost(name('wrong'), { certificate: { hostname: name('other') } });
    const result = await checkTls(name('wrong'), settings);
    expect(result).toMatchObject({ status: 'invalid', reason: 'hostname mismatch' });
    expect(certificateOf(result).altNames).toEqual([name('other')]);
  });

  it('reports a certificate from a CA outside the trust store as an untrusted chain', async () => {
    await servers.addHost(name('private-ca'));
    const result = await checkTls(name('private-ca'), { ...settings, ca: undefined });
    expect(result).toMatchObject({ status: 'invalid', reason: 'untrusted chain' });
  });

  it('judges validity by the time it is given', async () => {
    await servers.addHost(name('future'), { certificate: { notBefore: new Date(Date.now() + 2 * DAY_MS) } });
    expect(await checkTls(name('future'), settings)).toMatchObject({ status: 'invalid', reason: 'not yet valid' });
    const inAYear = () => new Date(Date.now() + 365 * DAY_MS);
    expect(await checkTls(name('valid'), { ...settings, now: inAYear })).toMatchObject({ status: 'expired' });
  });

  it('reports a refused connection as unreachable', async () => {
    const result = await checkTls(name('valid'), { ...settings, port: await unusedPort() });
    expect(result).toEqual({ status: 'unreachable', reason: expect.stringMatching(/ECONNREFUSED/), blocked: false });
  });

  it('gives up on a server that accepts but never completes the handshake', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      const result = await checkTls(name('valid'), { ...settings, port: (silent.address() as net.AddressInfo).port, timeoutMs: 300 });
      expect(result).toEqual({ status: 'unreachable', reason: 'no TLS handshake within 300 ms', blocked: false });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      silent.close();
    }
  });

  it('reports a port that does not speak TLS as invalid with the TLS error', async () => {
    const result = await checkTls(name('valid'), { ...settings, port: servers.http.port });
    expect(result).toMatchObject({ status: 'invalid', certificate: null, reason: expect.stringMatching(/SSL|TLS|EPROTO/i) });
  });

  it('reports a name without addresses and an unreachable DNS server as unreachable', async () => {
    expect(await checkTls(name('nowhere'), settings)).toEqual({
      status: 'unreachable',
      reason: `${name('nowhere')} has no A or AAAA record`,
      blocked: false,
    });
    const deadDns = createDnsResolver(`127.0.0.1:${await unusedPort()}`, { timeoutMs: 300, tries: 1 });
    expect(await checkTls(name('valid'), { ...settings, resolver: deadDns })).toMatchObject({
      status: 'unreachable',
      reason: expect.stringMatching(/^DNS server unreachable/),
    });
  });

  describe('address policy', () => {
    it('refuses a loopback target without ALLOW_PRIVATE_TARGETS', async () => {
      expect(await checkTls(name('valid'), { ...settings, policy: { allowPrivate: false } })).toEqual({
        status: 'unreachable',
        reason: `Refused to call ${name('valid')} (127.0.0.1): a loopback or private address`,
        blocked: true,
      });
    });

    it('calls it with 127.0.0.0/8 listed', async () => {
      expect((await checkTls(name('valid'), { ...settings, policy: parseTargetPolicy('127.0.0.0/8') })).status).toBe('active');
    });

    it('refuses a private address outside the listed ranges', async () => {
      servers.addRecord(name('inside'), 'A', '10.20.0.5');
      expect(await checkTls(name('inside'), { ...settings, policy: parseTargetPolicy('10.30.0.0/16,127.0.0.8/29') })).toEqual({
        status: 'unreachable',
        reason: `Refused to call ${name('inside')} (10.20.0.5): a loopback or private address outside the allowed ranges`,
        blocked: true,
      });
      expect(await checkTls(name('valid'), { ...settings, policy: parseTargetPolicy('127.0.0.8/29') })).toMatchObject({ blocked: true });
    });

    it('never calls a metadata address, whatever is allowed', async () => {
      servers.addRecord(name('metadata'), 'A', '169.254.169.254');
      expect(await checkTls(name('metadata'), { ...settings, policy: { allowPrivate: true } })).toEqual({
        status: 'unreachable',
        reason: `Refused to call ${name('metadata')} (169.254.169.254): a link-local or metadata address`,
        blocked: true,
      });
    });

    it('skips a blocked address when the name has an allowed one', async () => {
      servers.addRecord(name('mixed'), 'A', '10.9.9.9');
      servers.addRecord(name('mixed'), 'A', '127.0.0.1');
      await servers.setCertificate(name('mixed'));
      expect(await checkTls(name('mixed'), settings)).toMatchObject({ status: 'active', address: '127.0.0.1' });
    });
  });
});

describe('issuer reading', () => {
  it.each([
    [{ C: 'US', O: "Let's Encrypt", CN: 'R11' }, "Let's Encrypt", true],
    [{ O: 'ZeroSSL', CN: 'ZeroSSL ECC Domain Secure Site CA' }, 'ZeroSSL', true],
    [{ O: 'Google Trust Services', CN: 'WR1' }, 'Google Trust Services', true],
    [{ O: 'Buypass AS-983163327', CN: 'Buypass Class 2 CA 5' }, 'Buypass AS-983163327', true],
    [{ O: 'DigiCert Inc', CN: 'DigiCert Global G2 TLS RSA SHA256 2020 CA1' }, 'DigiCert Inc', false],
    [{ CN: 'internal-ca' }, 'internal-ca', false],
    [{}, 'unknown', false],
  ])('%j → %s, auto-renew %s', (issuer, type, autoRenew) => {
    expect(certificateTypeOf(issuer)).toBe(type);
    expect(inferAutoRenew(issuer)).toBe(autoRenew);
  });
});
