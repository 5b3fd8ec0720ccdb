import { mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { type IncomingHttpHeaders, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { KeptBytes, serveImmutableFiles } from './immutable-files';

const CHUNK = `export const numbers = [${Array.from({ length: 3000 }, (_, i) => i).join(',')}];\n`;

let root: string;
let http: FastifyInstance;

/** As a deploy leaves a file: written a minute ago, so settled (a file just written is not kept). */
function writeSettled(file: string, body: string | Buffer) {
  writeFileSync(file, body);
  const minuteAgo = new Date(Date.now() - 60_000);
  utimesSync(file, minuteAgo, minuteAgo);
}

function writeBuilt(name: string, body: string) {
  const file = path.join(root, name);
  writeSettled(file, body);
  writeSettled(`${file}.br`, brotliCompressSync(body));
  writeSettled(`${file}.gz`, gzipSync(body));
}

async function start(maxBytes?: number) {
  root = mkdtempSync(path.join(tmpdir(), 'cbh-immutable-'));
  http = Fastify();
  serveImmutableFiles(http, [{ root, prefix: '/' }], maxBytes);
  await http.listen({ port: 0, host: '127.0.0.1' });
}

afterEach(async () => {
  await http.close();
  rmSync(root, { recursive: true, force: true });
});

/** A raw HTTP exchange over loopback: the body as sent, not decoded. */
function get(url: string, headers: Record<string, string> = {}) {
  const { port } = http.server.address() as AddressInfo;
  return new Promise<{ statusCode: number; headers: IncomingHttpHeaders; rawPayload: Buffer; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const rawPayload = Buffer.concat(chunks);
        resolve({ statusCode: res.statusCode!, headers: res.headers, rawPayload, body: rawPayload.toString() });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('content-named build files, answered from memory', () => {
  beforeEach(() => start());

  it('sends the copy the client accepts, with its own validator, and 304 when the client has it', async () => {
    writeBuilt('470.f220c98413.js', CHUNK);
    const br = await get('/470.f220c98413.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(CHUNK);
    const gzip = await get('/470.f220c98413.js', { 'accept-encoding': 'gzip;q=1, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await get('/470.f220c98413.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(CHUNK);
    expect(new Set([br.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(3);
    const again = await get('/470.f220c98413.js', { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // weak comparison, a list, any
    for (const given of [`W/${br.headers.etag}`, `"other", ${br.headers.etag}`, '*']) {
      expect((await get('/470.f220c98413.js', { 'accept-encoding': 'br', 'if-none-match': given })).statusCode).toBe(304);
    }
    expect((await get('/470.f220c98413.js', { 'accept-encoding': 'br', 'if-none-match': String(plain.headers.etag) })).statusCode).toBe(
      200,
    );
    expect((await get('/470.f220c98413.js', { 'accept-encoding': 'BR' })).headers['content-encoding']).toBe('br');
  });

  it('does not keep a file written moments ago, which a deploy may still be copying', async () => {
    const file = path.join(root, '5.0123456789.js');
    writeFileSync(file, '');
    expect((await get('/5.0123456789.js')).body).toBe('');
    writeFileSync(file, CHUNK);
    writeFileSync(`${file}.br`, brotliCompressSync(CHUNK));
    const copied = await get('/5.0123456789.js', { 'accept-encoding': 'br' });
    expect(copied.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(copied.rawPayload).toString()).toBe(CHUNK);
  });

  it('never sends a compressed copy that does not hold the file, and keeps neither', async () => {
    const file = path.join(root, '6.0123456789.js');
    writeSettled(file, CHUNK);
    writeSettled(`${file}.br`, brotliCompressSync(CHUNK).subarray(0, 100));
    const cut = await get('/6.0123456789.js', { 'accept-encoding': 'br' });
    expect(cut.headers['content-encoding']).toBeUndefined();
    expect(cut.body).toBe(CHUNK);
    writeSettled(`${file}.br`, brotliCompressSync(CHUNK));
    expect((await get('/6.0123456789.js', { 'accept-encoding': 'br' })).headers['content-encoding']).toBe('br');
  });

  it('reads a file once: it is answered after it left the disk', async () => {
    writeBuilt('main.0123456789.js', CHUNK);
    expect((await get('/main.0123456789.js')).statusCode).toBe(200);
    for (const suffix of ['', '.br', '.gz']) unlinkSync(path.join(root, `main.0123456789.js${suffix}`));
    const later = await get('/main.0123456789.js', { 'accept-encoding': 'br' });
    expect(later.statusCode).toBe(200);
    expect(brotliDecompressSync(later.rawPayload).toString()).toBe(CHUNK);
  });

  it('answers 404 for a name not on disk, and finds the file once it is written', async () => {
    expect((await get('/9.abcdef0123.js')).statusCode).toBe(404);
    writeSettled(path.join(root, '9.abcdef0123.js'), 'console.log(9)');
    const found = await get('/9.abcdef0123.js', { 'accept-encoding': 'br' });
    expect(found.statusCode).toBe(200);
    // the build leaves a file under 1 KB without compressed copies
    expect(found.headers['content-encoding']).toBeUndefined();
    expect(found.body).toBe('console.log(9)');
  });

  it('takes no name outside its folder', async () => {
    writeFileSync(path.join(path.dirname(root), 'outside.0123456789.js'), 'secret');
    try {
      for (const url of ['/..%2Foutside.0123456789.js', '/%2e%2e%2foutside.0123456789.js', '/../outside.0123456789.js']) {
        const response = await get(url);
        expect(response.body).not.toContain('secret');
        expect(response.statusCode).toBe(404);
      }
    } finally {
      rmSync(path.join(path.dirname(root), 'outside.0123456789.js'));
    }
  });
});

describe('the bytes kept', () => {
  it('drops what it kept when a file would pass the most it keeps, so memory stays bounded', async () => {
    await start(CHUNK.length * 1.5);
    // without compressed copies: a file is its length
    writeSettled(path.join(root, '1.0123456789.js'), CHUNK);
    writeSettled(path.join(root, '2.0123456789.js'), CHUNK);
    expect((await get('/1.0123456789.js')).statusCode).toBe(200);
    unlinkSync(path.join(root, '1.0123456789.js'));
    // still kept: answered from memory
    expect((await get('/1.0123456789.js')).statusCode).toBe(200);
    // the second file passes the limit: what was kept is dropped, and the first is read again, from a disk without it
    expect((await get('/2.0123456789.js')).statusCode).toBe(200);
    expect((await get('/1.0123456789.js')).statusCode).toBe(404);
  });
});

describe('KeptBytes', () => {
  it('keeps nothing larger than its budget, and drops nothing for it', () => {
    const kept = new KeptBytes<Buffer>((bytes) => bytes.length, 100);
    kept.keep('a', Buffer.alloc(40));
    kept.keep('b', Buffer.alloc(40));
    kept.keep('huge', Buffer.alloc(150));
    expect(kept.get('huge')).toBeUndefined();
    expect(kept.get('a')).toBeDefined();
    expect(kept.get('b')).toBeDefined();
    // the least recently used goes first: a was read last, so b leaves
    kept.get('a');
    kept.keep('c', Buffer.alloc(40));
    expect(kept.get('b')).toBeUndefined();
    expect(kept.get('a')).toBeDefined();
  });
});
