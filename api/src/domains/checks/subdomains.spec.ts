import { subdomainsSeen } from './subdomains';

it('finds subdomains in certificate names and in record targets under the domain only', () => {
  expect(
    subdomainsSeen(
      'shop.test',
      ['shop.test', 'www.shop.test', '*.cdn.shop.test', 'API.Shop.Test', 'other.test'],
      [
        { recordType: 'A', name: 'shop.test', value: '192.0.2.1', ttl: 60 },
        { recordType: 'MX', name: 'shop.test', value: '10 mail.shop.test.', ttl: 60 },
        { recordType: 'NS', name: 'shop.test', value: 'ns1.provider.test', ttl: 60 },
        { recordType: 'CNAME', name: 'shop.test', value: 'edge.shop.test', ttl: 60 },
        { recordType: 'TXT', name: 'shop.test', value: 'docs.shop.test', ttl: 60 },
      ],
    ),
  ).toEqual(['api.shop.test', 'edge.shop.test', 'mail.shop.test', 'www.shop.test']);
});

it('does not mistake a longer domain with the same ending for a subdomain', () => {
  expect(subdomainsSeen('shop.test', ['myshop.test', 'a.myshop.test'], [])).toEqual([]);
});
