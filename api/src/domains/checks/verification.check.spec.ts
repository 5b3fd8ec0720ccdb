import { startDomainServers, unusedPort, type DomainServers } from '../../../test/domain-servers';
import { createDnsResolver, type DnsResolver } from './dns-resolver';
import { checkVerification, verificationRecordName, verificationRecordValue } from './verification.check';

describe('ownership verification (against a DNS server on loopback)', () => {
  let servers: DomainServers;
  let resolver: DnsResolver;

  beforeAll(async () => {
    servers = await startDomainServers();
    resolver = createDnsResolver(servers.dnsServer, { timeoutMs: 500, tries: 1 });
  });
  afterAll(() => servers.stop());

  it('names the record and its value', () => {
    expect(verificationRecordName('Shop.Example.test.')).toBe('_cbhub-verify.shop.example.test');
    expect(verificationRecordValue('abc123')).toBe('cbhub-verify=abc123');
  });

  it('fails with "no TXT record found" until the record appears, then verifies', async () => {
    const domain = `pending.${servers.suffix}`;
    await servers.addHost(domain, { certificate: false });
    expect(await checkVerification(resolver, domain, 'tok-1')).toEqual({ status: 'failed', reason: 'no TXT record found' });
    servers.addRecord(verificationRecordName(domain), 'TXT', 'cbhub-verify=tok-1');
    expect(await checkVerification(resolver, domain, 'tok-1')).toEqual({ status: 'verified' });
  });

  it('finds the value among several TXT records', async () => {
    const domain = `several.${servers.suffix}`;
    servers.addRecord(verificationRecordName(domain), 'TXT', 'cbhub-verify=old-token');
    servers.addRecord(verificationRecordName(domain), 'TXT', 'cbhub-verify=tok-2');
    expect(await checkVerification(resolver, domain, 'tok-2')).toEqual({ status: 'verified' });
  });

  it('fails with "value does not match" for another token', async () => {
    const domain = `mismatch.${servers.suffix}`;
    servers.addRecord(verificationRecordName(domain), 'TXT', 'cbhub-verify=someone-elses');
    expect(await checkVerification(resolver, domain, 'tok-3')).toEqual({
      status: 'failed',
      reason: 'value does not match',
      detail: 'found "cbhub-verify=someone-elses"',
    });
  });

  it('fails with "DNS server unreachable" when the DNS server does not answer', async () => {
    const unreachable = createDnsResolver(`127.0.0.1:${await unusedPort()}`, { timeoutMs: 500, tries: 1 });
    expect(await checkVerification(unreachable, `pending.${servers.suffix}`, 'tok-1')).toEqual({
      status: 'failed',
      reason: 'DNS server unreachable',
      detail: expect.stringMatching(/ECONNREFUSED/),
    });
  });
});
