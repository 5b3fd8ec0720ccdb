import dns2 from 'dns2';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { makeLeaf, unusedPort } from '../../../test/domain-servers';
import { parseTargetPolicy } from '../../platform/outbound/outbound-http';
import { DnsResolver } from './dns-resolver';
import { lookupRegistration, parseRdapDomain, type RdapSettings } from './rdap';

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

const REGISTRATION = { registrar: 'Example Registrar, Inc.', expiresAt: new Date('2031-03-01T10:00:00Z') };
const UNKNOWN = { registrar: null, expiresAt: null };

/** The registry's host a bootstrap redirect names, resolved by the loopback DNS server below. */
const REGISTRY_HOST = 'rdap.cbhub.test';

/**
 * A DNS server on loopback that answers the first A query for a name with one address and every later one with
 * another: DNS rebinding, which a client that looks a name up twice (once to judge it, once to connect) falls for.
 */
async function startRebindingDns(name: string, first: string, later: string) {
  const { Packet } = dns2;
  let aQueries = 0;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      if (question?.name === name && question.type === Packet.TYPE.A) {
        aQueries++;
        const address = aQueries === 1 ? first : later;
        response.answers.push({ name, type: Packet.TYPE.A, class: Packet.CLASS.IN, ttl: 0, address } as dns2.Packet.Resource);
      }
      void send(response);
    },
  });
  const { udp } = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return { server: `127.0.0.1:${udp!.port}`, aQueries: () => aQueries, stop: () => server.close() };
}

describe('registration data over RDAP (against an RDAP server on loopback)', () => {
  let server: http.Server;
  let baseUrl: string;
  const requests: string[] = [];
  /** The registry over https on 127.0.0.1, with a certificate for REGISTRY_HOST. */
  let registry: https.Server;
  let registryCertificate: string;
  /** Listens on 127.0.0.2 at the registry's port: the address DNS answers second, outside the allowed range. */
  let trap: net.Server;
  let trapConnections = 0;
  let dns: Awaited<ReturnType<typeof startRebindingDns>>;
  let resolver: DnsResolver;

  const settings = (base: string, overrides: Partial<RdapSettings> = {}): RdapSettings => ({
    baseUrl: base,
    timeoutMs: 2000,
    resolver,
    policy: { allowPrivate: false },
    ...overrides,
  });

  beforeAll(async () => {
    const now = Date.now();
    const { certificate, keyPem } = await makeLeaf(REGISTRY_HOST, new Date(now - 86_400_000), new Date(now + 86_400_000), null);
    registryCertificate = certificate.toString('pem');
    registry = https.createServer({ key: keyPem, cert: registryCertificate }, (request, response) => {
      const rdap = request.url === '/domain/shop.example.test' && request.headers.host === `${REGISTRY_HOST}:${registryPort()}`;
      response.writeHead(rdap ? 200 : 404, { 'content-type': 'application/rdap+json' }).end(rdap ? JSON.stringify(RDAP_DOMAIN) : '{}');
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    trap = net.createServer((socket) => {
      trapConnections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => trap.listen(registryPort(), '127.0.0.2', resolve));
    dns = await startRebindingDns(REGISTRY_HOST, '127.0.0.1', '127.0.0.2');
    resolver = new DnsResolver({ servers: [dns.server], timeoutMs: 1000 });

    server = http.createServer((request, response) => {
      requests.push(`${request.url} ${request.headers.accept}`);
      if (request.url === '/rebinding/domain/shop.example.test') {
        response.writeHead(302, { location: `https://${REGISTRY_HOST}:${registryPort()}/domain/shop.example.test` }).end();
      } else if (request.url === '/inward/domain/shop.example.test') {
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
  afterAll(async () => {
    server.closeAllConnections();
    registry.closeAllConnections();
    await Promise.all([server, registry, trap].map((open) => new Promise<void>((resolve) => open.close(() => resolve()))));
    await dns.stop();
  });

  const registryPort = () => (registry.address() as AddressInfo).port;

  it('reads the registrar and the expiry date', async () => {
    expect(await lookupRegistration('Shop.Example.test', settings(`${baseUrl}/`))).toEqual(REGISTRATION);
    expect(requests).toContain('/domain/shop.example.test application/rdap+json, application/json');
  });

  it('follows a bootstrap redirect to the registry', async () => {
    expect(await lookupRegistration('shop.example.test', settings(`${baseUrl}/bootstrap`))).toEqual(REGISTRATION);
  });

  it('connects a redirect to the address its host resolved to once, and never to the one DNS answers next', async () => {
    const rebinding = settings(`${baseUrl}/rebinding`, { policy: parseTargetPolicy('127.0.0.1/32'), ca: registryCertificate });
    // the registry's host is looked up once, judged (127.0.0.1 is allowed) and connected to at that address
    expect(await lookupRegistration('shop.example.test', rebinding)).toEqual(REGISTRATION);
    expect(dns.aQueries()).toBe(1);
    // now the name answers with an address outside the allowed range: refused, and nothing connects there
    expect(await lookupRegistration('shop.example.test', rebinding)).toEqual(UNKNOWN);
    expect(dns.aQueries()).toBe(2);
    expect(trapConnections).toBe(0);
  });

  it('does not follow a redirect to another host over plain http or to a private address', async () => {
    const answered = requests.length;
    expect(await lookupRegistration('shop.example.test', settings(`${baseUrl}/inward`))).toEqual(UNKNOWN);
    expect(requests.slice(answered)).toEqual(['/inward/domain/shop.example.test application/rdap+json, application/json']);
  });

  it('gives unknowns for an unknown domain, a garbled answer, a timeout and an unreachable server', async () => {
    expect(await lookupRegistration('unknown.example.test', settings(baseUrl))).toEqual(UNKNOWN);
    expect(await lookupRegistration('garbled.example.test', settings(baseUrl))).toEqual(UNKNOWN);
    // the answer would come after 2 s, with data: unknown means the 200 ms timeout ended the look-up
    expect(await lookupRegistration('slow.example.test', settings(baseUrl, { timeoutMs: 200 }))).toEqual(UNKNOWN);
    expect(await lookupRegistration('shop.example.test', settings(`http://127.0.0.1:${await unusedPort()}`))).toEqual(UNKNOWN);
    expect(await lookupRegistration('shop.example.test', settings('not a url'))).toEqual(UNKNOWN);
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
