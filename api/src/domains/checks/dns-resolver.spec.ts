import { startDomainServers, startSilentDnsServer, unusedPort, type DomainServers } from '../../../test/domain-servers';
import { parseDnsServers } from '../../platform/config/dns-servers';
import { ASSUMED_TTL_SECONDS, createDnsResolver, DnsResolver } from './dns-resolver';

describe('DNS resolver (against a DNS server on loopback)', () => {
  let servers: DomainServers;
  let resolver: DnsResolver;
  const name = (label: string) => `${label}.${servers.suffix}`;

  beforeAll(async () => {
    servers = await startDomainServers();
    resolver = createDnsResolver(servers.dnsServer, { timeoutMs: 500, tries: 1 });
    servers.addRecord(name('shop'), 'A', '192.0.2.10', 120);
    servers.addRecord(name('shop'), 'A', '192.0.2.11', 120);
    servers.addRecord(name('shop'), 'AAAA', '2001:db8::10', 240);
    servers.addRecord(name('shop'), 'MX', `10 mail.${servers.suffix}`);
    servers.addRecord(name('shop'), 'MX', `20 backup-mail.${servers.suffix}`);
    servers.addRecord(name('shop'), 'TXT', 'v=spf1 -all');
    servers.addRecord(name('shop'), 'TXT', `long=${'x'.repeat(400)}`);
    servers.addRecord(name('shop'), 'NS', `ns1.${servers.suffix}`);
    servers.addRecord(name('www.shop'), 'CNAME', name('shop'));
  });
  afterAll(() => servers.stop());

  it('uses the servers it was given', () => {
    expect(resolver.servers()).toEqual([servers.dnsServer]);
  });

  it('reads A and AAAA records with their TTLs', async () => {
    expect(await resolver.lookup(name('shop'), 'A')).toEqual({
      outcome: 'found',
      records: [
        { recordType: 'A', name: name('shop'), value: '192.0.2.10', ttl: 120 },
        { recordType: 'A', name: name('shop'), value: '192.0.2.11', ttl: 120 },
      ],
    });
    expect(await resolver.lookup(name('shop'), 'AAAA')).toEqual({
      outcome: 'found',
      records: [{ recordType: 'AAAA', name: name('shop'), value: '2001:db8::10', ttl: 240 }],
    });
  });

  it('reads CNAME, MX, TXT and NS records, with the assumed TTL', async () => {
    const cname = await resolver.lookup(`WWW.Shop.${servers.suffix}.`, 'CNAME');
    expect(cname).toEqual({
      outcome: 'found',
      records: [{ recordType: 'CNAME', name: name('www.shop'), value: name('shop'), ttl: ASSUMED_TTL_SECONDS }],
    });
    const mx = await resolver.lookup(name('shop'), 'MX');
    expect(mx.outcome === 'found' && mx.records.map((record) => record.value).sort()).toEqual([
      `10 mail.${servers.suffix}`,
      `20 backup-mail.${servers.suffix}`,
    ]);
    const txt = await resolver.lookup(name('shop'), 'TXT');
    expect(txt.outcome === 'found' && txt.records.map((record) => record.value).sort()).toEqual([`long=${'x'.repeat(400)}`, 'v=spf1 -all']);
    const ns = await resolver.lookup(name('shop'), 'NS');
    expect(ns).toEqual({
      outcome: 'found',
      records: [{ recordType: 'NS', name: name('shop'), value: `ns1.${servers.suffix}`, ttl: ASSUMED_TTL_SECONDS }],
    });
  });

  it('follows a CNAME to the addresses behind it', async () => {
    const lookup = await resolver.lookup(name('www.shop'), 'A');
    expect(lookup.outcome === 'found' && lookup.records.map((record) => record.value)).toEqual(['192.0.2.10', '192.0.2.11']);
  });

  it('tells "no records" apart: a missing type and a missing name', async () => {
    expect(await resolver.lookup(name('shop'), 'CNAME')).toEqual({ outcome: 'none' });
    expect(await resolver.lookup(name('nowhere'), 'A')).toEqual({ outcome: 'none' });
  });

  it('no longer finds a removed record', async () => {
    servers.addRecord(name('temp'), 'TXT', 'here for now');
    servers.addRecord(name('temp'), 'A', '192.0.2.20');
    expect((await resolver.lookup(name('temp'), 'TXT')).outcome).toBe('found');
    servers.removeRecord(name('temp'), 'TXT');
    expect(await resolver.lookup(name('temp'), 'TXT')).toEqual({ outcome: 'none' });
    expect((await resolver.lookup(name('temp'), 'A')).outcome).toBe('found');
  });

  it('reads every type of a name at once', async () => {
    const set = await resolver.lookupAll(name('shop'));
    expect(set.outcome).toBe('answered');
    const types = set.outcome === 'answered' ? set.records.map((record) => record.recordType) : [];
    expect(types.sort()).toEqual(['A', 'A', 'AAAA', 'MX', 'MX', 'NS', 'TXT', 'TXT']);
    expect(await resolver.lookupAll(name('nowhere'))).toEqual({ outcome: 'answered', records: [] });
  });

  it('reports a DNS server nobody listens on as unreachable, not as "no records"', async () => {
    const closed = createDnsResolver(`127.0.0.1:${await unusedPort()}`, { timeoutMs: 500, tries: 1 });
    const lookup = await closed.lookup(name('shop'), 'A');
    expect(lookup).toEqual({ outcome: 'unreachable', reason: expect.stringMatching(/ECONNREFUSED/) });
    expect(await closed.lookupAll(name('shop'))).toEqual({ outcome: 'unreachable', reason: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('gives up on a DNS server that never answers within the timeout', async () => {
    const silent = await startSilentDnsServer();
    try {
      const started = Date.now();
      const lookup = await new DnsResolver({ servers: [silent.dnsServer], timeoutMs: 300, tries: 1 }).lookup(name('shop'), 'TXT');
      expect(lookup).toEqual({ outcome: 'unreachable', reason: expect.stringMatching(/ETIMEOUT/) });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await silent.stop();
    }
  });
});

describe('DNS_SERVERS', () => {
  it('takes comma-separated host:port entries with IP addresses', () => {
    expect(parseDnsServers(undefined)).toBeNull();
    expect(parseDnsServers(' ')).toBeNull();
    expect(parseDnsServers('127.0.0.1:5353, 10.0.0.2, [::1]:5300, fd00::53')).toEqual([
      '127.0.0.1:5353',
      '10.0.0.2:53',
      '[::1]:5300',
      '[fd00::53]:53',
    ]);
  });

  it.each([
    ['dns.example.com:53', /not an IP address/],
    ['127.0.0.1:99999', /bad port/],
    ['127.0.0.1:x', /bad port/],
    ['fd00::53:53:x', /IPv6 server as \[address\]:port/],
  ])('refuses %s', (value, message) => {
    expect(() => parseDnsServers(value)).toThrow(message);
  });
});
