import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { mountStaticSite } from './static-site';

const VENDOR = `export const numbers = [${Array.from({ length: 2000 }, (_, i) => i).join(',')}];\n`;
const NEW_ENTRY = `var mfe_dashboard = ${JSON.stringify({ build: 'two', chunks: Array.from({ length: 200 }, (_, i) => `chunk-${i}.js`) })};\n`;

let root: string;
let server: Server;
/** A text file as the build writes it: as it is, and its brotli and gzip copies. */
function writeBuilt(file: string, body: string) {
  writeFileSync(file, body);
  writeFileSync(`${file}.br`, brotliCompressSync(body));
  writeFileSync(`${file}.gz`, gzipSync(body));
}
let port: number;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'cbh-static-'));
  const files: Record<string, string> = {
    'shell/index.html': '<!doctype html><div id="root"></div>',
    'shell/vendor.0123456789.js': VENDOR,
    'shell/tiny.0123456789.js': 'console.log(1)',
    'mfe-dashboard/remoteEntry.js': `var mfe_dashboard = ${JSON.stringify({ build: 'one', chunks: Array.from({ length: 200 }, (_, i) => `chunk-${i}.js`) })};\n`,
    'remotes.json': JSON.stringify({
      remotes: [{ name: 'mfe_dashboard', entry: '/remotes/mfe-dashboard/mf-manifest.json', routes: ['/dashboard'] }],
    }),
  };
  for (const [file, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    // the build leaves files under 1 KB as they are
    if (body.length >= 1024) writeBuilt(path.join(root, file), body);
    else writeFileSync(path.join(root, file), body);
  }
  const http = Fastify();
  await mountStaticSite(http, { staticRoot: root, manifestFile: path.join(root, 'remotes.json') });
  await http.listen({ port: 0, host: '127.0.0.1' });
  server = http.server;
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

/** A raw HTTP exchange: the body as sent, not decoded. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: url, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static files compressed at build time', () => {
  it('sends the brotli copy of a bundle to a browser that accepts it, with the same caching headers', async () => {
    const response = await get('/vendor.0123456789.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(String(response.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(response.body.length).toBeLessThan(VENDOR.length / 2);
    expect(brotliDecompressSync(response.body).toString()).toBe(VENDOR);
  });

  it('sends gzip to a client that only takes gzip, and the file as it is to one that takes neither', async () => {
    const gzipped = await get('/vendor.0123456789.js', { 'accept-encoding': 'gzip' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body).toString()).toBe(VENDOR);
    const plain = await get('/vendor.0123456789.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(VENDOR);
    // each encoding is its own representation, with its own validator
    expect(plain.headers.etag).not.toBe(gzipped.headers.etag);
    expect(plain.headers['content-type']).toBe(gzipped.headers['content-type']);
    expect(plain.headers['cache-control']).toBe(gzipped.headers['cache-control']);
  });

  it('sends a file the build left uncompressed (under 1 KB) as it is', async () => {
    const response = await get('/tiny.0123456789.js', { 'accept-encoding': 'br' });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.body.toString()).toBe('console.log(1)');
  });

  it('answers a revalidation of an unchanged entry with 304, and a HEAD with the headers only', async () => {
    const first = await get('/remotes/mfe-dashboard/remoteEntry.js', { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await get('/remotes/mfe-dashboard/remoteEntry.js', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const head = await get('/remotes/mfe-dashboard/remoteEntry.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
    expect(head.body.length).toBe(0);
  });

  it('sends a redeployed file’s new copies', async () => {
    const before = await get('/remotes/mfe-dashboard/remoteEntry.js', { 'accept-encoding': 'br' });
    const file = path.join(root, 'mfe-dashboard/remoteEntry.js');
    writeBuilt(file, NEW_ENTRY);
    for (const copy of [file, `${file}.br`, `${file}.gz`]) utimesSync(copy, new Date(), new Date(Date.now() + 5_000));
    const after = await get('/remotes/mfe-dashboard/remoteEntry.js', { 'accept-encoding': 'br' });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(brotliDecompressSync(after.body).toString()).toBe(NEW_ENTRY);
  });

  it('answers the content-named chunks of the shell and of each remote from memory, read once', async () => {
    const chunks = ['shell/kept.0123456789.js', 'mfe-dashboard/__federation_expose_Routes.0123456789.js'];
    for (const chunk of chunks) writeBuilt(path.join(root, chunk), VENDOR);
    // as a deploy leaves them: a file written moments ago is not kept (it may still be being copied)
    const minuteAgo = new Date(Date.now() - 60_000);
    for (const chunk of chunks) for (const suffix of ['', '.br', '.gz']) utimesSync(path.join(root, chunk + suffix), minuteAgo, minuteAgo);
    const urls = ['/kept.0123456789.js', '/remotes/mfe-dashboard/__federation_expose_Routes.0123456789.js'];
    for (const url of urls) expect((await get(url, { 'accept-encoding': 'br' })).status).toBe(200);
    for (const chunk of chunks) for (const suffix of ['', '.br', '.gz']) rmSync(path.join(root, chunk + suffix));
    for (const url of urls) {
      const later = await get(url, { 'accept-encoding': 'br' });
      expect(later.status).toBe(200);
      expect(brotliDecompressSync(later.body).toString()).toBe(VENDOR);
    }
  });

  it('serves nothing outside the build folders, compressed or not', async () => {
    expect((await get('/remotes/mfe-dashboard/../remotes.json', { 'accept-encoding': 'br' })).status).not.toBe(200);
    const encoded = await get('/remotes/mfe-dashboard/%2e%2e/remotes.json', { 'accept-encoding': 'br' });
    expect([403, 404]).toContain(encoded.status);
    expect(encoded.body.toString()).not.toContain('mfe_dashboard');
  });
});
