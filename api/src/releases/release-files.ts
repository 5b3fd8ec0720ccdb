import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RELEASE_PINS_COOKIE, RELEASE_UPLOAD_MAX_BYTES, RELEASE_VISITOR_COOKIE } from '@cbh/contracts';
import { CONTENT_TYPES, cookieValue, errorBody, IMMUTABLE } from '../platform';
import type { SessionRequest } from '../identity';
import type { ReleasesService } from './releases.service';
import { sideOf } from './release-state.service';

/**
 * Every release file, opened directly, is a sandboxed document that may load nothing (a script loaded by the shell
 * is not governed by it), and its type is never sniffed: no file of a release runs script on the hub's origin.
 */
const FILE_CSP = "default-src 'none'; sandbox";

/**
 * Serves the files of released versions at /releases/<remote>/<version>/<path>, only of a version this browser is
 * served (live, previous, canary, or pinned by it) and only under its own remote's name: a version never changes, so
 * every file (its manifest and entry included) is cached for good — by the browser alone for a pinned one — and
 * /remotes.json points pages at the live version's. Registered before the application listens, beside the static
 * site.
 */
export function serveReleaseFiles(http: FastifyInstance, releases: ReleasesService) {
  http.get<{ Params: { remote: string; version: string; '*': string } }>('/releases/:remote/:version/*', async (request, reply) => {
    const { remote, version } = request.params;
    const filePath = request.params['*'];
    const versionId = Number(version);
    if (!/^[a-z0-9_]{1,64}$/.test(remote) || !Number.isInteger(versionId) || versionId <= 0 || filePath.includes('..')) {
      return reply.status(404).send(errorBody(404, 'No such release file'));
    }
    const pins = releases.state.pinsOf(cookieValue(request.headers.cookie, RELEASE_PINS_COOKIE), (request.raw as SessionRequest).user);
    const found = await releases.store.file(remote, versionId, filePath, String(request.headers['accept-encoding'] ?? ''), pins);
    if (!found) return reply.status(404).send(errorBody(404, 'No such release file'));
    reply
      .header('Cache-Control', found.audience === 'everyone' ? IMMUTABLE : 'private, no-store')
      .header('Vary', 'Accept-Encoding')
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', FILE_CSP)
      .type(CONTENT_TYPES[path.extname(filePath)] ?? 'application/octet-stream');
    if (found.encoding) reply.header('Content-Encoding', found.encoding);
    return reply.send(found.content);
  });
}

/** Lets the release uploads read a whole build (RELEASE_UPLOAD_MAX_BYTES); other routes keep MAX_BODY_KB. */
export function acceptReleaseUploads(http: FastifyInstance) {
  http.addHook('onRoute', (route) => {
    if ((route.url === '/api/releases/:remote/versions' || route.url === '/api/releases/:remote/check') && route.method === 'POST')
      route.bodyLimit = RELEASE_UPLOAD_MAX_BYTES;
  });
}

/**
 * The entries /remotes.json gives this request's visitor: their pins, their side of each canary, or the live versions.
 * A signed-in person's side is their account's, the same on every fetch whatever cookie they hold. A visitor without
 * a visitor cookie the hub sealed gets one (a random id sealed, a year, HttpOnly), so the side they land on while
 * signed out stays theirs and is the hub's choice, never theirs.
 */
export function remoteEntriesFor(releases: ReleasesService) {
  return (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.cookie;
    let visitor = releases.state.visitorOf(cookieValue(header, RELEASE_VISITOR_COOKIE));
    if (!visitor) {
      const issued = releases.state.newVisitor();
      visitor = issued.visitor;
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header('Set-Cookie', `${RELEASE_VISITOR_COOKIE}=${issued.cookie}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax${secure}`);
    }
    const user = (request.raw as SessionRequest).user;
    const pins = releases.state.pinsOf(cookieValue(header, RELEASE_PINS_COOKIE), user);
    const side = sideOf(user, visitor);
    return (remote: string) => releases.state.entryFor(remote, side, pins);
  };
}
