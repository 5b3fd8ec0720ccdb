import type { IncomingMessage } from 'node:http';
import { BadRequestException } from '@nestjs/common';
import { TOKEN_AND_COOKIE_MESSAGE, TOKEN_IN_URL_MESSAGE, tokenInQuery } from '../auth/access.guard';
import { bearerOf } from '../../platform';
import type { LiveSession, SessionReader } from '../auth/session-reader.service';
import type { TokenAuthenticator } from './token-authenticator.service';

/** How a token's sockets are named among sessions' keys (see sessionKey, a hex hash, which never starts so). */
export const tokenKey = (tokenId: string) => `token:${tokenId}`;

/**
 * Who opens a /ws socket: the session of its cookie, or the personal access token of `Authorization: Bearer`, by
 * the rules of the HTTP routes (never both, never a token in the URL). A refusal is an HttpException whose status
 * the upgrade answers; null is an upgrade with neither.
 */
export function authenticateUpgrade(sessions: SessionReader, tokens: TokenAuthenticator) {
  return async (request: IncomingMessage): Promise<LiveSession | null> => {
    if (tokenInQuery(request.url ?? '/')) throw new BadRequestException(TOKEN_IN_URL_MESSAGE);
    const bearer = bearerOf(request.headers.authorization);
    if (bearer === undefined) return sessions.sessionOf(request);
    if (request.headers.cookie !== undefined) throw new BadRequestException(TOKEN_AND_COOKIE_MESSAGE);
    const found = await tokens.authenticate(bearer, request.socket.remoteAddress ?? null);
    if (found.retryAfter > 0) throw tokens.rateLimited(found.retryAfter);
    return {
      user: found.user,
      key: tokenKey(found.token.id),
      sid: '',
      expiresAt: found.expiresAt,
      token: { id: found.token.id, permissions: found.permissions },
    };
  };
}
