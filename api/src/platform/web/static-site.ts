import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { localRemoteFolders, parseRemotesManifest, type RemotesManifest } from '@cbh/contracts';
import { errorBody } from '../common/api-exception.filter';
import { pathOf } from '../common/http';
import { HASHED, IMMUTABLE, serveImmutableFiles } from './immutable-files';

const REVALIDATE = 'no-cache';

function cacheHeaders(reply: FastifyReply, filePath: string) {
  reply.header('Cache-Control', HASHED.test(filePath) ? IMMUTABLE : REVALIDATE);
}

export function readRemotesManifest(file: string): RemotesManifest {
  return parseRemotesManifest(JSON.parse(readFileSync(file, 'utf8')), file);
}

const isSitePath = (path: string) => !path.startsWith('/api/') && path !== '/api' && path !== '/ws' && path !== '/metrics';

/**
 * Serves the built site: /remotes.json, each remote under /remotes/<folder>/ and the shell's files. Returns the
 * fallback for a request no route answered: index.html for a page path (the shell routes in the browser); false
 * for anything else, which stays a 404.
 */
export async function mountStaticSite(
  http: FastifyInstance,
  {
    staticRoot,
    manifestFile,
    entriesFor = () => () => null,
  }: {
    staticRoot: string;
    manifestFile: string;
    /** For one request, a remote's released entry, which replaces the manifest's (the deployed folder's); null for none. */
    entriesFor?: (request: FastifyRequest, reply: FastifyReply) => (remote: string) => string | null;
  },
): Promise<(request: FastifyRequest, reply: FastifyReply) => boolean> {
  const manifest = readRemotesManifest(manifestFile);

  // the remotes and their routes are the file's; which build of each is live, the release state's
  http.get('/remotes.json', (request, reply) => {
    const entryOf = entriesFor(request, reply);
    const remotes = manifest.remotes.map((remote) => ({ ...remote, entry: entryOf(remote.name) ?? remote.entry }));
    reply
      .header('Cache-Control', REVALIDATE)
      .type('application/json')
      .send(JSON.stringify({ ...manifest, remotes }));
  });

  // Only the folders the manifest points at are served, never the rest of the build output. Files are looked up
  // per request, so a remote redeployed into its folder is served at once.
  // preCompressed: the build writes .br and .gz copies of its text files (tools/webpack/federated-app.cjs); the one
  // the browser accepts is sent, with Vary: Accept-Encoding, and the file as it is otherwise
  const files = { index: false as const, cacheControl: false, setHeaders: cacheHeaders, decorateReply: false, preCompressed: true };
  const remoteFolders = localRemoteFolders(manifest).map((folder) => ({
    root: path.join(staticRoot, folder),
    prefix: `/remotes/${folder}/`,
  }));
  for (const folder of remoteFolders) await http.register(fastifyStatic, { ...files, ...folder });
  http.get('/remotes/*', (_request, reply) => {
    reply.status(404).send(errorBody(404, 'No such remote file'));
  });

  const shellDir = path.join(staticRoot, 'shell');
  // the content-named chunks from memory; every other file through @fastify/static, looked up per request
  serveImmutableFiles(http, [...remoteFolders, { root: shellDir, prefix: '/' }]);
  const indexHtml = path.join(shellDir, 'index.html');
  await http.register(fastifyStatic, { ...files, root: shellDir, prefix: '/', decorateReply: true });

  const sendPage = (reply: FastifyReply) => {
    if (!existsSync(indexHtml)) return reply.status(503).type('text/plain').send('The site is not built yet: run npm run build.');
    reply.header('Cache-Control', REVALIDATE);
    return reply.sendFile('index.html', shellDir, { cacheControl: false });
  };
  // the shell's folder itself is no file to list
  http.get('/', (_request, reply) => sendPage(reply));
  return (request, reply) => {
    const pagePath = pathOf(request.raw);
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && isSitePath(pagePath) && !path.extname(pagePath);
    if (!isPage || pagePath.startsWith('/remotes/')) return false;
    void sendPage(reply);
    return true;
  };
}
