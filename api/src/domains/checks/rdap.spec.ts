import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { unusedPort } from '../../../test/domain-servers';
import { lookupRegistration, parseRdapDomain } from './rdap';

const RDAP_DOMAIN = {
  objectClassName: 'domain',
  ldhName: 'shop.example.test',
  entities: [
    {
      objectClassName: 'entity',
      roles: ['registrant'],
      vcardArray: [
        'vcard',
        [
          ['version', {}, 'text', '4.0'],
          ['fn', {}, 'text', 'Some Owner'],
        ],
      ],
    },
    {
      objectClassName: 'entity',
      roles: ['registrar'],
      handle: '9999',
      vcardArray: [
        'vcard',
        [
          ['version', {}, 'text', '4.0'],
          ['fn', {}, 'text', 'Example Registrar, Inc.'],
        ],
      ],
    },
  ],
  events: [
    { eventAction: 'registration', eventDate: '2020-03-01T10:00:00Z' },
    { eventAction: 'expiration', eventDate: '2031-03-01T10:00:00Z' },
    { eventAction: 'last update of RDAP database', eventDate: '2026-01-01T00:00:00Z' },
  ],
};

describe('registration data over RDAP (against an RDAP server on loopback)', () => {
  let server: http.Server;
  let baseUrl: string;
  const requests: string[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      requests.push(`${request.url} ${request.headers.accept}`);
      if (request.url === '/inward/domain/shop.example.test') {
        // a redirect towards this network (another loopback host, plain http): must not be followed
        response.writeHead(302, { location: `${baseUrl.replace('127.0.0.1', 'localhost')}/domain/shop.example.test` }).end();
      } else if (request.url === '/bootstrap/domain/shop.example.test') {
        // What a bootstrap service does: send the client to the registry's server.
        response.writeHead(302, { location: `${baseUrl}/domain/shop.example.test` }).end();
      } else if (request.url === '/domain/shop.example.test') {
        response.writeHead(200, { 'content-type': 'application/rdap+json' }).end(JSON.stringify(RDAP_DOMAIN));
      } else if (request.url === '/domain/slow.example.test') {
        const timer = setTimeout(() => response.writeHead(200).end(JSON.stringify(RDAP_DOMAIN)), 2000);
        response.on('close', () => clearTimeout(timer));
      } else if (request.url === '/domain/garbled.example.test') {
        response.writeHead(200, { 'content-type': 'application/rdap+json' }).end('<html>not rdap</html>');
      } else {
        response.writeHead(404, { 'content-type': 'application/rdap+json' }).end(JSON.stringify({ errorCode: 404, title: 'Not Found' }));
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('reads the registrar and the expiry date', async () => {
    expect(await lookupRegistration('Shop.Example.test', { baseUrl: `${baseUrl}/`, timeoutMs: 2000 })).toEqual({
      registrar: 'Example Registrar, Inc.',
      expiresAt: new Date('2031-03-01T10:00:00Z'),
    });
    expect(requests).toContain('/domain/shop.example.test application/rdap+json, application/json');
  });

  it('follows a bootstrap redirect to the registry', async () => {
    expect(await lookupRegistration('shop.example.test', { baseUrl: `${baseUrl}/bootstrap`, timeoutMs: 2000 })).toEqual({
      registrar: 'Example Registrar, Inc.',
      expiresAt: new Date('2031-03-01T10:00:00Z'),
    });
  });

  it('does not follow a redirect to another host over plain http or to a private address', async () => {
    const answered = requests.length;
    expect(await lookupRegistration('shop.example.test', { baseUrl: `${baseUrl}/inward`, timeoutMs: 2000 })).toEqual({
      registrar: null,
      expiresAt: null,
    });
    expect(requests.slice(answered)).toEqual(['/inward/domain/shop.example.test application/rdap+json, application/json']);
  });

  it('gives unknowns for an unknown domain, a garbled answer, a timeout and an unreachable server', async () => {
    const unknown = { registrar: null, expiresAt: null };
    expect(await lookupRegistration('unknown.example.test', { baseUrl, timeoutMs: 2000 })).toEqual(unknown);
    expect(await lookupRegistration('garbled.example.test', { baseUrl, timeoutMs: 2000 })).toEqual(unknown);
    // the answer would come after 2 s, with data: unknown means the 200 ms timeout ended the look-up
    expect(await lookupRegistration('slow.example.test', { baseUrl, timeoutMs: 200 })).toEqual(unknown);
    expect(await lookupRegistration('shop.example.test', { baseUrl: `http://127.0.0.1:${await unusedPort()}`, timeoutMs: 2000 })).toEqual(
      unknown,
    );
    expect(await lookupRegistration('shop.example.test', { baseUrl: 'not a url', timeoutMs: 2000 })).toEqual(unknown);
  });
});

describe('RDAP domain object', () => {
  it('finds a registrar nested under another entity and ignores malformed parts', () => {
    expect(
      parseRdapDomain({
        entities: [
          { roles: ['reseller'], entities: [{ roles: ['registrar'], vcardArray: ['vcard', [['fn', {}, 'text', 'Nested Registrar']]] }] },
        ],
        events: [{ eventAction: 'expiration', eventDate: 'not a date' }],
      }),
    ).toEqual({ registrar: 'Nested Registrar', expiresAt: null });
    expect(parseRdapDomain({ entities: 'x', events: {} })).toEqual({ registrar: null, expiresAt: null });
    expect(parseRdapDomain(null)).toEqual({ registrar: null, expiresAt: null });
  });
});
