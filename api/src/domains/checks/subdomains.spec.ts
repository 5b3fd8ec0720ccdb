import type { DnsRecord } from './dns-resolver';
import { SUBDOMAINS_PER_ROUND, subdomainsSeen } from './subdomains';
import type { TlsCertificate, TlsCheckResult } from './tls.check';

const certificate = (altNames: string[]): TlsCertificate => ({
  certificateType: 'Test CA',
  issuer: 'O=Test CA',
  subject: 'CN=shop.test',
  altNames,
  issuedAt: new Date(0),
  expiresAt: new Date(0),
  autoRenew: false,
  fingerprint256: 'AA',
  serialNumber: '01',
});
const trusted = (altNames: string[]): TlsCheckResult => ({ status: 'active', certificate: certificate(altNames), address: '192.0.2.1' });
const records: DnsRecord[] = [
  { recordType: 'A', name: 'shop.test', value: '192.0.2.1', ttl: 60 },
  { recordType: 'MX', name: 'shop.test', value: '10 mail.shop.test.', ttl: 60 },
  { recordType: 'NS', name: 'shop.test', value: 'ns1.provider.test', ttl: 60 },
  { recordType: 'CNAME', name: 'shop.test', value: 'edge.shop.test', ttl: 60 },
  { recordType: 'TXT', name: 'shop.test', value: 'docs.shop.test', ttl: 60 },
];

it('finds subdomains in a trusted certificate’s names and in record targets under the domain only', () => {
  expect(
    subdomainsSeen('shop.test', trusted(['shop.test', 'www.shop.test', '*.cdn.shop.test', 'API.Shop.Test', 'other.test']), records),
  ).toEqual(['api.shop.test', 'edge.shop.test', 'mail.shop.test', 'www.shop.test']);
});

it('takes no names from a certificate the trust store refused, and none that are not host names', () => {
  const selfSigned: TlsCheckResult = {
    status: 'invalid',
    reason: 'self-signed certificate',
    certificate: certificate(['a.shop.test']),
    address: '',
  };
  expect(subdomainsSeen('shop.test', selfSigned, [])).toEqual([]);
  expect(subdomainsSeen('shop.test', { status: 'unreachable', reason: 'refused', blocked: false }, [])).toEqual([]);
  expect(subdomainsSeen('shop.test', null, [])).toEqual([]);
  expect(
    subdomainsSeen('shop.test', trusted(['bad name.shop.test', 'a..shop.test', '-x.shop.test', `${'a'.repeat(64)}.shop.test`]), []),
  ).toEqual([]);
});

it('does not mistake a longer domain with the same ending for a subdomain', () => {
  expect(subdomainsSeen('shop.test', trusted(['myshop.test', 'a.myshop.test']), [])).toEqual([]);
});

it('takes at most a bounded number of names from one round', () => {
  const many = Array.from({ length: 5000 }, (_, i) => `host-${String(i).padStart(4, '0')}.shop.test`);
  const seen = subdomainsSeen('shop.test', trusted(many), []);
  expect(seen).toHaveLength(SUBDOMAINS_PER_ROUND);
  expect(seen[0]).toBe('host-0000.shop.test');
});
