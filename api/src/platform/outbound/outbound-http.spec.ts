import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  blockedReason,
  cidrContains,
  outboundGet,
  OutboundRefusedError,
  outboundRequest,
  OutboundTimeoutError,
  parseCidr,
  parseTargetPolicy,
} from './outbound-http';

const policy = (value: string) => parseTargetPolicy(value);

describe('outbound address policy', () => {
  it.each([
    ['169.254.169.254', false, 'a link-local or metadata address'],
    ['169.254.169.254', true, 'a link-local or metadata address'],
    ['fe80::1', true, 'a link-local or metadata address'],
    ['fd00:ec2::254', true, 'a link-local or metadata address'],
    ['::ffff:169.254.169.254', true, 'a link-local or metadata address'],
    ['0.0.0.0', true, 'an unspecified, multicast or reserved address'],
    ['224.0.0.1', true, 'an unspecified, multicast or reserved address'],
    ['127.0.0.1', false, 'a loopback or private address'],
    ['10.1.2.3', false, 'a loopback or private address'],
    ['172.20.0.5', false, 'a loopback or private address'],
    ['192.168.1.10', false, 'a loopback or private address'],
    ['::1', false, 'a loopback or private address'],
    ['fd12:3456::1', false, 'a loopback or private address'],
    ['127.0.0.1', true, null],
    ['10.1.2.3', true, null],
    ['172.32.0.1', false, null],
    ['93.184.216.34', false, null],
    ['2606:2800:220:1::', false, null],
  ])('%s (private allowed: %s) → %s', (address, allowPrivate, reason) => {
    expect(blockedReason(address, { allowPrivate })).toBe(reason);
  });

  it('judges spelled-out, mapped and NAT64 forms of an address like the address itself', () => {
    const none = { allowPrivate: false };
    expect(blockedReason('0:0:0:0:0:0:0:1', none)).toBe('a loopback or private address');
    expect(blockedReason('::ffff:7f00:1', none)).toBe('a loopback or private address');
    expect(blockedReason('::FFFF:10.0.0.1', none)).toBe('a loopback or private address');
    expect(blockedReason('64:ff9b::a9fe:a9fe', { allowPrivate: true })).toBe('a link-local or metadata address');
    expect(blockedReason('FE80::1%eth0', { allowPrivate: true })).toBe('a link-local or metadata address');
    expect(blockedReason('not-an-address', { allowPrivate: true })).toBe('not an IP address');
  });

  it.each([
    // IPv4 inside IPv6, in every notation: judged as the IPv4 address
    ['::ffff:7f00:1', 'a loopback or private address'],
    ['0:0:0:0:0:ffff:7f00:0001', 'a loopback or private address'],
    ['::ffff:0:7f00:1', 'a loopback or private address'],
    ['::ffff:0:a9fe:a9fe', 'a link-local or metadata address'],
    ['::ffff:a9fe:a9fe', 'a link-local or metadata address'],
    ['64:ff9b::7f00:1', 'a loopback or private address'],
    ['2002:a9fe:a9fe::', 'a link-local or metadata address'],
    ['::7f00:1', 'an unspecified, multicast or reserved address'],
    // special ranges that are not global unicast
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'an unspecified, multicast or reserved address'],
    ['2001:db8::1', 'an unspecified, multicast or reserved address'],
    ['100::1', 'an unspecified, multicast or reserved address'],
    ['::', 'an unspecified, multicast or reserved address'],
    ['ff02::1', 'an unspecified, multicast or reserved address'],
    ['192.0.2.10', 'an unspecified, multicast or reserved address'],
    ['203.0.113.7', 'an unspecified, multicast or reserved address'],
    ['240.0.0.1', 'an unspecified, multicast or reserved address'],
    ['255.255.255.255', 'an unspecified, multicast or reserved address'],
    ['100.64.0.1', 'a loopback or private address'],
    ['fc00::1', 'a loopback or private address'],
    // global unicast: called
    ['8.8.8.8', null],
    ['2606:4700:4700::1111', null],
    ['2002:0808:0808::1', null],
    ['64:ff9b::808:808', null],
  ])('only global unicast is called by default: %s → %s', (address, reason) => {
    expect(blockedReason(address, { allowPrivate: false })).toBe(reason);
  });

  it('never calls cloud metadata services outside link-local, and treats non-internet ranges as private', () => {
    const all = { allowPrivate: true };
    const none = { allowPrivate: false };
    expect(blockedReason('168.63.129.16', all)).toBe('a link-local or metadata address');
    expect(blockedReason('100.100.100.200', all)).toBe('a link-local or metadata address');
    for (const address of ['198.18.0.1', 'fec0::1', '64:ff9b:1::a00:1', '2002:7f00:1::1']) {
      expect({ address, reason: blockedReason(address, none) }).toEqual({ address, reason: 'a loopback or private address' });
    }
    expect(blockedReason('2002:a9fe:a9fe::1', all)).toBe('a link-local or metadata address');
    expect(blockedReason('2002:0808:0808::1', none)).toBeNull();
  });

  describe('with a list of CIDR ranges', () => {
    const listed = policy('10.20.0.0/16,127.0.0.8/29,fd00:1::/32');

    it.each([
      ['10.20.5.6', null],
      ['127.0.0.9', null],
      ['127.0.0.15', null],
      ['::ffff:10.20.0.1', null],
      ['fd00:1:2::3', null],
      ['10.21.0.1', 'a loopback or private address outside the allowed ranges'],
      ['127.0.0.1', 'a loopback or private address outside the allowed ranges'],
      ['127.0.0.16', 'a loopback or private address outside the allowed ranges'],
      ['192.168.1.1', 'a loopback or private address outside the allowed ranges'],
      ['::1', 'a loopback or private address outside the allowed ranges'],
      ['fd00:2::1', 'a loopback or private address outside the allowed ranges'],
      ['93.184.216.34', null],
      ['169.254.169.254', 'a link-local or metadata address'],
      ['224.0.0.1', 'an unspecified, multicast or reserved address'],
    ])('%s → %s', (address, reason) => {
      expect(blockedReason(address, listed)).toBe(reason);
    });

    it('never opens link-local or metadata addresses, even inside a listed range', () => {
      const wide = policy('fd00::/8,::ffff:10.0.0.0/104');
      expect(blockedReason('fd00:ec2::254', wide)).toBe('a link-local or metadata address');
      expect(blockedReason('10.0.0.1', wide)).toBeNull();
    });
  });

  it('parses ALLOW_PRIVATE_TARGETS as a flag or a list of ranges', () => {
    expect(policy('true')).toEqual({ allowPrivate: true });
    expect(policy('YES')).toEqual({ allowPrivate: true });
    expect(policy('false')).toEqual({ allowPrivate: false });
    expect(policy('0')).toEqual({ allowPrivate: false });
    const { allowPrivate } = policy(' 10.20.0.0/16 , 127.0.0.8/29,::1 ');
    expect(Array.isArray(allowPrivate) && allowPrivate.map((range) => [range.text, range.family, range.prefix])).toEqual([
      ['10.20.0.0/16', 4, 16],
      ['127.0.0.8/29', 4, 29],
      ['::1', 6, 128],
    ]);
  });

  it.each([
    ['maybe', /"maybe" is not a CIDR range/],
    ['10.20.0.0/33', /prefix longer than 32 bits/],
    ['fd00::/129', /prefix longer than 128 bits/],
    ['10.20.1.0/16', /did you mean 10\.20\.0\.0\/16\?/],
    ['10.0.0.0/8/1', /not a CIDR range/],
    ['300.1.1.1/8', /not a CIDR range/],
    ['169.254.0.0/16', /link-local or metadata address, which is never called/],
    ['0.0.0.0/0', /never called/],
  ])('refuses the range %s', (value, message) => {
    expect(() => policy(value)).toThrow(message);
  });

  it('names every bad range of a list at once', () => {
    expect(() => policy('10.0.0.0/8,nope,10.1.1.1/8')).toThrow(/nope[\s\S]*10\.1\.1\.1\/8/);
  });

  it('tells whether a range contains an address', () => {
    const range = parseCidr('fd00:1::/32');
    expect(cidrContains(range, 'fd00:1:ffff::1')).toBe(true);
    expect(cidrContains(range, 'fd00:2::1')).toBe(false);
    expect(cidrContains(range, '10.0.0.1')).toBe(false);
    expect(cidrContains(parseCidr('10.0.0.0/8'), 'garbage')).toBe(false);
  });
});

/** Answers at once, then sends its body one byte every 200 ms, forever: never idle, never done. */
function dripForever(_request: http.IncomingMessage, response: http.ServerResponse) {
  response.writeHead(200, { 'content-type': 'text/plain' });
  const timer = setInterval(() => response.write('.'), 200);
  response.on('close', () => clearInterval(timer));
}

describe('outboundGet', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.url === '/drip') dripForever(request, response);
      else response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('ends a call whose body is still coming at its deadline, as a timeout', async () => {
    const url = new URL(`http://127.0.0.1:${port}/drip`);
    const call = outboundGet(url, { timeoutMs: 600, ...policy('127.0.0.0/8') });
    await expect(call).rejects.toBeInstanceOf(OutboundTimeoutError);
    await expect(call).rejects.toThrow('No complete answer within 600 ms');
  });

  it('calls a loopback address only when a listed range holds it', async () => {
    const url = new URL(`http://127.0.0.1:${port}/`);
    await expect(outboundGet(url, { timeoutMs: 2000, allowPrivate: false })).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(outboundGet(url, { timeoutMs: 2000, ...policy('10.0.0.0/8') })).rejects.toThrow(/outside the allowed ranges/);
    await expect(outboundGet(url, { timeoutMs: 2000, ...policy('127.0.0.0/8') })).resolves.toEqual({ status: 204 });
  });

  it('judges the addresses a host name resolves to', async () => {
    const url = new URL(`http://localhost:${port}/`);
    await expect(outboundGet(url, { timeoutMs: 2000, allowPrivate: false })).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(outboundGet(url, { timeoutMs: 2000, ...policy('127.0.0.0/8') })).resolves.toEqual({ status: 204 });
  });
});

describe('outboundRequest', () => {
  let server: http.Server;
  let port: number;
  /** What the echo receiver got, in order. */
  const received: { method: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        received.push({ method: request.method!, headers: request.headers, body });
        if (request.url === '/big') response.writeHead(503).end('x'.repeat(10_000));
        else response.writeHead(201, { 'content-type': 'text/plain' }).end(`got ${body.length} characters`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('posts a body the receiver gets intact, with its headers, and answers the status and the body', async () => {
    const body = JSON.stringify({ text: 'Grüße — ünïcödé ✓', list: [1, 2, 3] });
    const answer = await outboundRequest(new URL(`http://127.0.0.1:${port}/hook`), {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', 'X-Test': 'yes' },
      timeoutMs: 2000,
      allowPrivate: true,
    });
    expect(answer).toEqual({ status: 201, body: `got ${body.length} characters` });
    expect(received.at(-1)).toMatchObject({
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-test': 'yes', 'content-length': String(Buffer.byteLength(body)) },
    });
  });

  it("keeps only the first 2 KB of an answer's body", async () => {
    const answer = await outboundRequest(new URL(`http://127.0.0.1:${port}/big`), {
      method: 'POST',
      body: '{}',
      timeoutMs: 2000,
      allowPrivate: true,
    });
    expect(answer).toEqual({ status: 503, body: 'x'.repeat(2048) });
  });

  it('refuses a metadata address always, and loopback unless private targets are allowed, before sending anything', async () => {
    const count = received.length;
    const post = (url: string, allowPrivate: boolean) =>
      outboundRequest(new URL(url), { method: 'POST', body: '{}', timeoutMs: 2000, allowPrivate });
    await expect(post('http://169.254.169.254/latest/meta-data/', true)).rejects.toThrow(
      new OutboundRefusedError('Refused to call 169.254.169.254: a link-local or metadata address'),
    );
    await expect(post(`http://127.0.0.1:${port}/hook`, false)).rejects.toThrow(
      new OutboundRefusedError('Refused to call 127.0.0.1: a loopback or private address'),
    );
    await expect(post(`http://localhost:${port}/hook`, false)).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(received).toHaveLength(count);
  });
});
