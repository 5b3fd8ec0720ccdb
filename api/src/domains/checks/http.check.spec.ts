import { parseTargetPolicy } from '../../platform/outbound/outbound-http';
import { startDomainServers, unusedPort, type DomainServers } from '../../../test/domain-servers';
import { createDnsResolver } from './dns-resolver';
import { checkHttp, type HttpCheckSettings } from './http.check';

describe('uptime check (against HTTP and HTTPS servers on loopback)', () => {
  let servers: DomainServers;
  let settings: HttpCheckSettings;
  let closedPort: number;
  const name = (label: string) => `${label}.${servers.suffix}`;

  beforeAll(async () => {
    servers = await startDomainServers();
    closedPort = await unusedPort();
    settings = {
      resolver: createDnsResolver(servers.dnsServer, { timeoutMs: 500, tries: 1 }),
      policy: parseTargetPolicy('127.0.0.0/8'),
      httpsPort: servers.https.port,
      httpPort: servers.http.port,
      timeoutMs: 1000,
    };
    await servers.addHost(name('site'));
  });
  afterAll(() => servers.stop());

  it('is up when the site answers over HTTPS', async () => {
    const result = await checkHttp(name('site'), settings);
    expect(result).toMatchObject({ status: 'up', statusCode: 200, protocol: 'https', address: '127.0.0.1' });
    expect(result.reason).toBeUndefined();
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(0);
    expect(result.responseTimeMs).toBeLessThan(1000);
  });

  it('counts a redirect as up and an error status as down', async () => {
    servers.setSite(name('moved'), { status: 301 });
    servers.setSite(name('broken'), { status: 503 });
    servers.setSite(name('missing'), { status: 404 });
    await Promise.all(['moved', 'broken', 'missing'].map((label) => servers.addHost(name(label))));
    expect(await checkHttp(name('moved'), settings)).toMatchObject({ status: 'up', statusCode: 301 });
    expect(await checkHttp(name('broken'), settings)).toMatchObject({ status: 'down', statusCode: 503, reason: 'HTTP 503' });
    expect(await checkHttp(name('missing'), settings)).toMatchObject({ status: 'down', statusCode: 404, reason: 'HTTP 404' });
  });

  it('falls back to HTTP when the HTTPS port refuses the connection', async () => {
    const result = await checkHttp(name('site'), { ...settings, httpsPort: closedPort });
    expect(result).toMatchObject({ status: 'up', statusCode: 200, protocol: 'http' });
  });

  it('falls back to HTTP when the HTTPS port does not speak TLS', async () => {
    const result = await checkHttp(name('site'), { ...settings, httpsPort: servers.http.port });
    expect(result).toMatchObject({ status: 'up', statusCode: 200, protocol: 'http' });
  });

  it('goes down with the server and comes back up with it', async () => {
    const httpOnly = { ...settings, httpsPort: closedPort };
    expect((await checkHttp(name('site'), httpOnly)).status).toBe('up');
    await servers.http.down();
    try {
      const down = await checkHttp(name('site'), httpOnly);
      expect(down).toMatchObject({ status: 'down', protocol: 'http', reason: expect.stringMatching(/ECONNREFUSED/) });
      expect(down.statusCode).toBeUndefined();
    } finally {
      await servers.http.up();
    }
    expect(await checkHttp(name('site'), httpOnly)).toMatchObject({ status: 'up', statusCode: 200 });
  });

  it('is down when the site does not answer within the timeout', async () => {
    servers.setSite(name('slow'), { delayMs: 3000 });
    await servers.addHost(name('slow'));
    const started = Date.now();
    const result = await checkHttp(name('slow'), { ...settings, timeoutMs: 300 });
    expect(result).toMatchObject({ status: 'down', protocol: 'https', reason: expect.stringMatching(/no answer within \d+ ms/) });
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('measures a slow answer', async () => {
    servers.setSite(name('sluggish'), { delayMs: 200 });
    await servers.addHost(name('sluggish'));
    const result = await checkHttp(name('sluggish'), settings);
    expect(result).toMatchObject({ status: 'up' });
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(190);
  });

  it('is down when the name does not resolve', async () => {
    expect(await checkHttp(name('nowhere'), settings)).toMatchObject({
      status: 'down',
      reason: `${name('nowhere')} has no A or AAAA record`,
    });
  });

  describe('address policy', () => {
    it('refuses a loopback target without ALLOW_PRIVATE_TARGETS', async () => {
      const result = await checkHttp(name('site'), { ...settings, policy: { allowPrivate: false } });
      expect(result).toMatchObject({
        status: 'down',
        reason: `Refused to call ${name('site')} (127.0.0.1): a loopback or private address`,
      });
      expect(result.protocol).toBeUndefined();
    });

    it('calls it with 127.0.0.0/8 listed', async () => {
      expect((await checkHttp(name('site'), { ...settings, policy: parseTargetPolicy('127.0.0.0/8') })).status).toBe('up');
    });

    it('refuses a private address outside the listed ranges', async () => {
      servers.addRecord(name('private'), 'A', '192.168.50.5');
      expect(await checkHttp(name('private'), { ...settings, policy: parseTargetPolicy('10.20.0.0/16,127.0.0.0/8') })).toMatchObject({
        status: 'down',
        reason: `Refused to call ${name('private')} (192.168.50.5): a loopback or private address outside the allowed ranges`,
      });
    });

    it('refuses a bare loopback address the same way', async () => {
      expect(await checkHttp('127.0.0.1', { ...settings, policy: { allowPrivate: false } })).toMatchObject({
        status: 'down',
        reason: 'Refused to call 127.0.0.1: a loopback or private address',
      });
    });
  });
});
