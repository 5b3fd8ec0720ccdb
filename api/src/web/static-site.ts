import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { checkRemotesManifest, describeManifestIssues, type RemotesManifest } from '@cbh/contracts';
import { errorBody } from '../common/api-exception.filter';

const REVALIDATE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Build output names carry a content hash: main.3f9a1c0b2e.js */
const HASHED = /\.[0-9a-f]{8,}\.(js|css)$/;

function cacheHeaders(res: Response, filePath: string) {
  res.setHeader('Cache-Control', HASHED.test(filePath) ? IMMUTABLE : REVALIDATE);
}

export function readRemotesManifest(file: string): RemotesManifest {
  const parsed = checkRemotesManifest(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a valid remotes manifest: ${describeManifestIssues(parsed.issues)}`);
  return parsed.data;
}

const isSitePath = (path: string) => !path.startsWith('/api/') && path !== '/api' && path !== '/ws' && path !== '/metrics';

/** The dist folders of remotes deployed with this server: entries of the form /remotes/<folder>/... */
export function localRemoteFolders(manifest: RemotesManifest): string[] {
  return manifest.remotes.flatMap(({ entry }) => /^\/remotes\/([\w-]+)\//.exec(entry)?.[1] ?? []);
}

/**
 * Serves the built site: /remotes.json, each remote under /remotes/<folder>/ and the shell for every other
 * page path. Manifests, entries and the HTML revalidate on each load; hashed chunks are cached for good.
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
    app.use(`/remotes/${folder}`, express.static(path.join(staticRoot, folder), { index: false, setHeaders: cacheHeaders }));
  }
  app.use('/remotes', (_req, res) => {
    res.status(404).json(errorBody(404, 'No such remote file'));
  });

  const shellDir = path.join(staticRoot, 'shell');
  const indexHtml = path.join(shellDir, 'index.html');
  const shellFiles = express.static(shellDir, { index: false, setHeaders: cacheHeaders });
  // API calls never look at the disk: only other paths may be the shell's files.
  app.use((req: Request, res: Response, next: NextFunction) => (isSitePath(req.path) ? shellFiles(req, res, next) : next()));
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
