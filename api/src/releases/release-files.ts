import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RELEASE_PINS_COOKIE, RELEASE_UPLOAD_MAX_BYTES, RELEASE_VISITOR_COOKIE } from '@cbh/contracts';
import { cookieValue } from '../common/http';
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

const VISITOR = /^[A-Za-z0-9_-]{22}$/;

/**
 * The entries /remotes.json gives this request's visitor: their pins, their side of each canary, or the live versions.
 * A visitor without the visitor cookie gets one (random, a year, HttpOnly), so the side they land on stays theirs.
 */
export function remoteEntriesFor(releases: ReleasesService) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.cookie;
    let visitor = cookieValue(header, RELEASE_VISITOR_COOKIE);
    if (!visitor || !VISITOR.test(visitor)) {
      visitor = randomBytes(16).toString('base64url');
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header('Set-Cookie', `${RELEASE_VISITOR_COOKIE}=${visitor}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax${secure}`);
    }
    const pins = releases.pinsOf(cookieValue(header, RELEASE_PINS_COOKIE));
    return (remote: string) => releases.entryFor(remote, visitor, pins);
  };
}
