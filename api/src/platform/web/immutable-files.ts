import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompress, gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RELEASE_COPY_ENCODINGS } from '@cbh/contracts';

/** The content hash the build puts in a file's name (tools/webpack/federated-app.cjs: [contenthash:10]). */
const HASH = '[0-9a-f]{8,}';
/** A build file named by its content (main.3f9a1c0b2e.js), or one of its compressed copies; the hash is group 1. */
export const HASHED = new RegExp(`\\.(${HASH})\\.(?:js|css)(?:\\.br|\\.gz)?$`);
/** The name of a build file (not a copy) whose bytes never change, so they may be kept, as a route parameter's pattern. */
const CONTENT_NAMED = `^(?!\\.)[\\w.-]+\\.${HASH}\\.(?:js|css)$`;
/**
 * A file written this recently may still be being copied (a deploy that copies a folder file by file): it is answered
 * as read, and kept only once it has been still this long.
 */
const SETTLED_MS = 5000;
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * The type of each file type the site's chunks and a release's files (RELEASE_FILE_TYPES) are served as, as
 * @fastify/static types the site's other files. None of them is a document that runs script: no HTML, no SVG.
 */
export const CONTENT_TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};
/** The encodings a build writes copies of its files in (tools/webpack/federated-app.cjs; a release's the same). */
export type CopyEncoding = (typeof RELEASE_COPY_ENCODINGS)[keyof typeof RELEASE_COPY_ENCODINGS];
/** Bytes kept in memory at most by each cache of immutable files (every copy counted); the whole site is a few MB. */
const IMMUTABLE_BYTES_KEPT = 64 * 1024 * 1024;

/** Of the copies there are, the one the client's Accept-Encoding prefers (q-values honoured), or null for the file as it is. */
export function acceptedCopy(acceptEncoding: string | undefined, available: CopyEncoding[]): CopyEncoding | null {
  if (!acceptEncoding || available.length === 0) return null;
  // content-codings are case-insensitive (RFC 9110 §8.4.1)
  return negotiate(acceptEncoding.toLowerCase(), available) as CopyEncoding | null;
}

/** Whether an If-None-Match header names this entity tag: weak comparison, a list, or `*` (RFC 9110 §13.1.2). */
function matchesEntityTag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((given) => {
    const tag = given.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/**
 * Immutable values kept in memory, the least recently used dropped first once their bytes pass the most kept: a
 * replica's copy of what never changes under its key (a release file by its hash, a build file by its content name).
 */
export class KeptBytes<V> {
  private readonly kept = new Map<string, V>();
  private bytes = 0;

  constructor(
    private readonly sizeOf: (value: V) => number,
    private readonly maxBytes = IMMUTABLE_BYTES_KEPT,
  ) {}

  get(key: string): V | undefined {
    const hit = this.kept.get(key);
    if (hit !== undefined) {
      // most recently used last, so the oldest go first
      this.kept.delete(key);
      this.kept.set(key, hit);
    }
    return hit;
  }

  keep(key: string, value: V): void {
    // one value past the whole budget would only empty the cache, again at each request for it
    if (this.kept.has(key) || this.sizeOf(value) > this.maxBytes) return;
    this.kept.set(key, value);
    this.bytes += this.sizeOf(value);
    for (const [oldest, old] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.kept.delete(oldest);
      this.bytes -= this.sizeOf(old);
    }
  }
}

/** A build file as kept: as it is, and the compressed copies the build left beside it. */
interface BuildFile {
  type: string;
  hash: string;
  identity: Buffer;
  copies: Partial<Record<CopyEncoding, Buffer>>;
}
const sizeOfBuildFile = (file: BuildFile) => file.identity.length + Object.values(file.copies).reduce((sum, copy) => sum + copy.length, 0);

const unbrotli = promisify(brotliDecompress);
const ungzip = promisify(gunzip);
const DECOMPRESS: Record<CopyEncoding, (copy: Buffer) => Promise<Buffer>> = { br: unbrotli, gzip: ungzip };

/** A file's bytes and when it last changed, or undefined when there is none. */
async function readIfThere(file: string): Promise<{ bytes: Buffer; changedAt: number } | undefined> {
  try {
    const [bytes, info] = await Promise.all([readFile(file), stat(file)]);
    return { bytes, changedAt: info.mtimeMs };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR') return undefined;
    throw error;
  }
}

/** Whether a compressed copy holds exactly the file's bytes: one cut short, or of another build, is never sent. */
const sameBytes = (encoding: CopyEncoding, copy: Buffer, identity: Buffer) =>
  DECOMPRESS[encoding](copy).then(
    (inflated) => inflated.equals(identity),
    () => false,
  );

/**
 * A build file as read, and whether it may be kept: not while it or a copy was written within SETTLED_MS, nor when a
 * copy does not hold the file's bytes (a copy failing or not matching is left out, and the file read again next time).
 */
async function readBuildFile(file: string, name: string, now: number): Promise<{ file: BuildFile; keep: boolean } | null> {
  const identity = await readIfThere(file);
  if (!identity) return null;
  let keep = identity.bytes.length > 0 && now - identity.changedAt >= SETTLED_MS;
  const copies: BuildFile['copies'] = {};
  for (const [suffix, encoding] of Object.entries(RELEASE_COPY_ENCODINGS)) {
    const copy = await readIfThere(file + suffix).catch(() => undefined);
    if (!copy) continue;
    if (now - copy.changedAt < SETTLED_MS) keep = false;
    if (await sameBytes(encoding, copy.bytes, identity.bytes)) copies[encoding] = copy.bytes;
    else keep = false;
  }
  // the route's pattern admits only .js and .css names with a hash
  const type = CONTENT_TYPES[path.extname(name)]!;
  return { file: { type, hash: HASHED.exec(name)![1]!, identity: identity.bytes, copies }, keep };
}

/**
 * Answers the build's content-named files (the chunks, main.<hash>.js) of each folder from memory, read once: a cold
 * page load asks for 20 of them at once, and through @fastify/static each took a stat of its compressed copy, an
 * open, a read stream and a close on libuv's thread pool. Other names (index.html, remoteEntry.js, mf-manifest.json,
 * which a redeploy replaces in place) are left to @fastify/static, which looks them up per request.
 * A content-named file is never replaced under its name, so what is kept stays right; one deleted after it was read is
 * still answered, which a page loaded before the redeploy may need. One caught in the middle of a deploy's copy (just
 * written, or its compressed copy not matching it) is answered as read and read again next time.
 */
export function serveImmutableFiles(http: FastifyInstance, folders: { prefix: string; root: string }[], maxBytes = IMMUTABLE_BYTES_KEPT) {
  const kept = new KeptBytes<BuildFile>(sizeOfBuildFile, maxBytes);
  /** Files being read: requests for one that arrive together wait for the one read. */
  const reading = new Map<string, ReturnType<typeof readBuildFile>>();
  const buildFile = async (file: string, name: string) => {
    const hit = kept.get(file);
    if (hit) return hit;
    let read = reading.get(file);
    if (!read) {
      read = readBuildFile(file, name, Date.now()).finally(() => reading.delete(file));
      reading.set(file, read);
    }
    const found = await read;
    // one not there yet, or not yet settled, is read again on its next request
    if (found?.keep) kept.keep(file, found.file);
    return found?.file ?? null;
  };
  for (const { prefix, root } of folders) {
    http.get(`${prefix}:file(${CONTENT_NAMED})`, async (request: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply) => {
      const file = await buildFile(path.join(root, request.params.file), request.params.file);
      if (!file) return reply.callNotFound();
      const encoding = acceptedCopy(request.headers['accept-encoding'], Object.keys(file.copies) as CopyEncoding[]);
      // each encoding is its own representation, with its own validator
      const etag = `"${file.hash}${encoding ? `-${encoding}` : ''}"`;
      reply.header('Content-Type', file.type).header('Cache-Control', IMMUTABLE).header('Vary', 'Accept-Encoding').header('ETag', etag);
      if (encoding) reply.header('Content-Encoding', encoding);
      if (matchesEntityTag(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.send(encoding ? file.copies[encoding] : file.identity);
    });
  }
}
