import { z } from 'zod';

/** One of the signed-in person's sessions, as GET /api/sessions lists it. */
export interface SessionView {
  /** The session's key, a SHA-256 of its id: it names the session without being able to act as its cookie. */
  id: string;
  /** The session this request was made with. */
  current: boolean;
  /** From the user agent the session signed in with, e.g. 'Firefox 133'. */
  browser: string;
  /** From the user agent the session signed in with, e.g. 'macOS'. */
  os: string;
  /** The client address it signed in from, as the API sees it behind the gateway. */
  address: string | null;
  signedInAt: string;
  /** Last request, to within a minute or so (it is written at most once a minute). */
  lastSeenAt: string;
  expiresAt: string;
}

/** The answer to signing out everywhere (else): the sessions ended, and the account's access tokens revoked with them. */
export interface EndedSessionsView {
  ended: number;
  revokedTokens: number;
}

/** A session as DELETE /api/sessions/{id} names it: the id of SessionView, 64 lower-case hex digits. */
export const sessionIdSchema = z.string().regex(/^[0-9a-f]{64}$/, 'must be a session id');
