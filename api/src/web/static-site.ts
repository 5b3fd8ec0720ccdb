import { existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { remotesManifestSchema, type RemotesManifest } from '@cbh/contracts';
import { errorBody } from '../common/api-exception.filter';

const REVALIDATE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Build output names carry a content hash: main.3f9a1c0b2e.js */
const HASHED = /\.[0-9a-f]{8,}\.(js|css)$/;

function cacheHeaders(res: Response, filePath: string) {
  res.setHeader('Cache-Control', HASHED.test(filePath) ? IMMUTABLE : REVALIDATE);
}

/** Text files worth compressing; smaller ones cost more in headers and CPU than they save. */
const COMPRESSIBLE = /\.(js|mjs|json|css|html|svg|txt|map)$/;
const MIN_COMPRESSED_BYTES = 1024;
type Encoding = 'br' | 'gzip';
const compressors: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  // quality 6: within 1 % of brotli's best on these bundles at a tenth of the time of quality 9
  br: (body) => promisify(brotliCompress)(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/** The encoding a request accepts that we serve (brotli before gzip), if any. */
export function acceptedEncoding(header: string | undefined): Encoding | undefined {
  const accepted = new Map(
    (header ?? '').split(',').map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return [name, q === undefined ? 1 : Number(q)] as const;
    }),
  );
  return (['br', 'gzip'] as const).find((encoding) => (accepted.get(encoding) ?? 0) > 0);
}

/**
 * Serves the text files of a build folder compressed (brotli or gzip, as the browser accepts), each compressed once
 * per version of the file (its size and modification time) and kept in memory: a bundle costs the CPU of
 * compressing it once per process, not once per visitor. Everything else falls through to express.static: other
 * types, small files, HEAD-less odd methods, clients that accept no compression. Same headers as express.static
 * (cache policy, weak ETag from size and mtime, Last-Modified), plus Vary: Accept-Encoding; conditional requests
 * get their 304.
 */
function compressedFiles(root: string, cache = new Map<string, { version: string; body: Promise<Buffer> }>()) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !COMPRESSIBLE.test(req.path)) return next();
    res.vary('Accept-Encoding');
    const encoding = acceptedEncoding(req.headers['accept-encoding']);
    if (!encoding) return next();
    let relative: string;
    try {
      relative = decodeURIComponent(req.path);
    } catch {
      return next();
    }
    const file = path.join(root, relative);
    // as express.static: nothing outside the folder, no dotfiles
    if (!file.startsWith(root + path.sep) || relative.split('/').some((part) => part.startsWith('.'))) return next();
    const stats = await stat(file).catch(() => null);
    if (!stats?.isFile() || stats.size < MIN_COMPRESSED_BYTES) return next();

    const version = `${stats.size.toString(16)}-${stats.mtimeMs.toString(16)}`;
    cacheHeaders(res, file);
    res.setHeader('ETag', `W/"${stats.size.toString(16)}-${stats.mtime.getTime().toString(16)}"`);
    res.setHeader('Last-Modified', stats.mtime.toUTCString());
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    const key = `${encoding}:${file}`;
    let entry = cache.get(key);
    if (entry?.version !== version) {
      const body = readFile(file).then(compressors[encoding]);
      entry = { version, body };
      cache.set(key, entry);
      // a failed read or compression is not kept: the next request tries again
      body.catch(() => cache.get(key) === entry && cache.delete(key));
    }
    let body: Buffer;
    try {
      body = await entry.body;
    } catch {
      return next();
    }
    res.type(path.extname(file));
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

export function readRemotesManifest(file: string): RemotesManifest {
  const parsed = remotesManifestSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    throw new Error(`${file} is not a valid remotes manifest: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  return parsed.data;
}

const isSitePath = (path: string) => !path.startsWith('/api/') && path !== '/api' && path !== '/ws' && path !== '/metrics';

/** The dist folders of remotes deployed with this server: entries of the form /remotes/<folder>/... */
export function localRemoteFolders(manifest: RemotesManifest): string[] {
  return manifest.remotes.flatMap(({ entry }) => /^\/remotes\/([\w-]+)\//.exec(entry)?.[1] ?? []);
}

/**
 * Serves the built site: /remotes.json, each remote under /remotes/<folder>/ and the shell for every other
 * page path. Manifests, entries and the HTML revalidate on each load; hashed chunks are cached for good. Text
 * files go out compressed when the browser accepts it.
 */
export function mountStaticSite(app: Express, { staticRoot, manifestFile }: { staticRoot: string; manifestFile: string }) {
  const manifest = readRemotesManifest(manifestFile);
  const manifestJson = JSON.stringify(manifest);

  app.get('/remotes.json', (_req, res) => {
    res.setHeader('Cache-Control', REVALIDATE);
    res.type('application/json').send(manifestJson);
  });

  // Only the folders the manifest points at are served, never the rest of the build output.
  for (const folder of localRemoteFolders(manifest)) {
    const root = path.join(staticRoot, folder);
    app.use(`/remotes/${folder}`, compressedFiles(root), express.static(root, { index: false, setHeaders: cacheHeaders }));
  }
  app.use('/remotes', (_req, res) => {
    res.status(404).json(errorBody(404, 'No such remote file'));
  });

  const shellDir = path.join(staticRoot, 'shell');
  const indexHtml = path.join(shellDir, 'index.html');
  const shellCompressed = compressedFiles(shellDir);
  const shellFiles = express.static(shellDir, { index: false, setHeaders: cacheHeaders });
  // API calls never look at the disk: only other paths may be the shell's files.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!isSitePath(req.path)) return next();
    void shellCompressed(req, res, () => shellFiles(req, res, next));
  });
  app.get(/^\/(?!api\/|api$|ws$|metrics$|remotes\/).*/, (req, res, next) => {
    if (path.extname(req.path)) return next();
    if (!existsSync(indexHtml)) {
      res.status(503).type('text/plain').send('The site is not built yet: run npm run build.');
      return;
    }
    res.setHeader('Cache-Control', REVALIDATE);
    res.sendFile('index.html', { root: shellDir });
  });
}
