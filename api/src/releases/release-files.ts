import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { RELEASE_UPLOAD_MAX_BYTES } from '@cbh/contracts';
import { errorBody } from '../common/api-exception.filter';
import type { ReleasesService } from './releases.service';

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/**
 * Serves the files of released versions at /releases/<remote>/<version>/<path>: a version never changes, so every file
 * (its manifest and entry included) is cached for good, and /remotes.json points pages at the live version's.
 * Registered before the application listens, beside the static site.
 */
export function serveReleaseFiles(http: FastifyInstance, releases: ReleasesService) {
  http.get<{ Params: { remote: string; version: string; '*': string } }>('/releases/:remote/:version/*', async (request, reply) => {
    const { remote, version } = request.params;
    const filePath = request.params['*'];
    const versionId = Number(version);
    if (!/^[a-z0-9_]{1,64}$/.test(remote) || !Number.isInteger(versionId) || versionId <= 0 || filePath.includes('..')) {
      return reply.status(404).send(errorBody(404, 'No such release file'));
    }
    const found = await releases.file(remote, versionId, filePath, String(request.headers['accept-encoding'] ?? ''));
    if (!found) return reply.status(404).send(errorBody(404, 'No such release file'));
    reply
      .header('Cache-Control', 'public, max-age=31536000, immutable')
      .header('Vary', 'Accept-Encoding')
      .type(TYPES[path.extname(filePath)] ?? 'application/octet-stream');
    if (found.encoding) reply.header('Content-Encoding', found.encoding);
    return reply.send(found.content);
  });
}

/** Lets the release uploads read a whole build (RELEASE_UPLOAD_MAX_BYTES); other routes keep MAX_BODY_KB. */
export function acceptReleaseUploads(http: FastifyInstance) {
  http.addHook('onRoute', (route) => {
    if (route.url === '/api/releases/:remote/versions' || route.url === '/api/releases/:remote/check')
      route.bodyLimit = RELEASE_UPLOAD_MAX_BYTES;
  });
}
