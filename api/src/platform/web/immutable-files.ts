import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RELEASE_COPY_ENCODINGS } from '@cbh/contracts';

/** A build file named by its content (main.3f9a1c0b2e.js): its bytes never change, so they may be kept. */
const CONTENT_NAMED = '^[\\w.-]+\\.[0-9a-f]{8,}\\.(?:js|css)$';
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
export const IMMUTABLE_BYTES_KEPT = 64 * 1024 * 1024;

/** Of the copies there are, the one the client's Accept-Encoding prefers (q-values honoured), or null for the file as it is. */
export function acceptedCopy(acceptEncoding: string | undefined, available: CopyEncoding[]): CopyEncoding | null {
  if (!acceptEncoding || available.length === 0) return null;
  return negotiate(acceptEncoding, available) as CopyEncoding | null;
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
    if (this.kept.has(key)) return;
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

const readIfThere = (file: string) =>
  readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'EISDIR') return undefined;
    throw error;
  });

async function readBuildFile(file: string, name: string): Promise<BuildFile | null> {
  const identity = await readIfThere(file);
  if (!identity) return null;
  const copies: BuildFile['copies'] = {};
  for (const [suffix, encoding] of Object.entries(RELEASE_COPY_ENCODINGS)) {
    const copy = await readIfThere(file + suffix);
    if (copy) copies[encoding] = copy;
  }
  // the route's pattern admits only .js and .css names with a hash
  return { type: CONTENT_TYPES[path.extname(name)]!, hash: /\.([0-9a-f]{8,})\.\w+$/.exec(name)![1]!, identity, copies };
}

/**
 * Answers the build's content-named files (the chunks, main.<hash>.js) of each folder from memory, read once: a cold
 * page load asks for 20 of them at once, and through @fastify/static each took a stat of its compressed copy, an
 * open, a read stream and a close on libuv's thread pool. Other names (index.html, remoteEntry.js, mf-manifest.json,
 * which a redeploy replaces in place) are left to @fastify/static, which looks them up per request.
 * A content-named file is never replaced under its name, so what is kept stays right; one deleted after it was read is
 * still answered, which a page loaded before the redeploy may need.
 */
export function serveImmutableFiles(http: FastifyInstance, folders: { prefix: string; root: string }[], maxBytes = IMMUTABLE_BYTES_KEPT) {
  const kept = new KeptBytes<BuildFile>(sizeOfBuildFile, maxBytes);
  /** Files being read: requests for one that arrive together wait for the one read. */
  const reading = new Map<string, Promise<BuildFile | null>>();
  const buildFile = async (file: string, name: string) => {
    const hit = kept.get(file);
    if (hit) return hit;
    let read = reading.get(file);
    if (!read) {
      read = readBuildFile(file, name).finally(() => reading.delete(file));
      reading.set(file, read);
    }
    const found = await read;
    // one not there yet is looked for again on its next request
    if (found) kept.keep(file, found);
    return found;
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
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.send(encoding ? file.copies[encoding] : file.identity);
    });
  }
}
