import { cookieValue, SecretBox } from '../../platform';
import type { AppRequest, SessionRequest } from './session-user';

/**
 * The cookie that carries an OpenID Connect sign-in through the provider. The checks of the authorization request
 * travel sealed in the browser rather than in a session row, so a visitor who is sent to the provider and never
 * comes back leaves nothing in the database.
 */
export const OIDC_STATE_COOKIE = 'cbh.oidc';

/** How long a person may spend at the provider before the sign-in has to start again. */
export const OIDC_STATE_TTL_SECONDS = 600;

/** The checks the provider's answer must pass: the authorization request's state and nonce, and the PKCE verifier. */
export interface AuthorizationChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** One sign-in on its way through the provider. */
export interface PendingSignIn extends AuthorizationChecks {
  /** The account that asked to link its organization account; null for a sign-in. */
  linkFor: string | null;
  /** ms since the epoch: the cookie's own expiry is the browser's to honour, this one is checked here. */
  expiresAt: number;
}

// only the sign-in paths need it: /api/login, its callback and the linking page
const COOKIE_PATH = '/api/login';

/** Seals and opens the sign-in cookie (AES-256-GCM under a key derived from the session secret). */
export class OidcStateCookie {
  private readonly box: SecretBox;

  constructor(serverSecret: string) {
    this.box = new SecretBox(serverSecret, 'oidc-sign-in-state');
  }

  /** The Set-Cookie value for a sign-in that starts now. `secure`: the request came over HTTPS. */
  issue(checks: AuthorizationChecks, linkFor: string | null, secure: boolean): string {
    const pending: PendingSignIn = { ...checks, linkFor, expiresAt: Date.now() + OIDC_STATE_TTL_SECONDS * 1000 };
    return cookie(this.box.seal(JSON.stringify(pending)), OIDC_STATE_TTL_SECONDS, secure);
  }

  /** The pending sign-in the request's cookie names, or null when it is missing, forged or expired. */
  read(cookieHeader: string | undefined): PendingSignIn | null {
    const sealed = cookieValue(cookieHeader, OIDC_STATE_COOKIE);
    const opened = sealed ? this.box.open(sealed) : null;
    if (!opened) return null;
    const pending = JSON.parse(opened) as PendingSignIn;
    return pending.expiresAt > Date.now() ? pending : null;
  }

  /** The Set-Cookie value that removes the cookie: each sign-in's checks are used once. */
  static cleared(secure: boolean): string {
    return cookie('', 0, secure);
  }
}

// SameSite=Lax: the provider sends the browser back with a top-level GET, which carries Lax cookies
const cookie = (value: string, maxAgeSeconds: number, secure: boolean) =>
  `${OIDC_STATE_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

/** Whether the request came over HTTPS (directly or through a trusted proxy): the cookie is then Secure. */
export const overHttps = (req: AppRequest) => (req.raw as SessionRequest).secure === true;
