import { Logger } from '@nestjs/common';
import * as client from 'openid-client';
import type { AppConfig } from '../../platform';
import { type AuthorizationChecks, OidcStateCookie } from './oidc-state';

/** Who the provider says signed in. */
export interface OidcIdentity {
  /** The provider's issuer identifier and the person's `sub` there: together they name the person for good. */
  issuer: string;
  subject: string;
  /** In lower case; null when the provider sent none. */
  email: string | null;
  /** Only an explicit `email_verified: true` counts: a provider that says nothing has not checked the address. */
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
}

/** The provider's answer on the callback; `linkFor` is the account that asked to link, null for a sign-in. */
export type OidcAnswer =
  { ok: true; identity: OidcIdentity; linkFor: string | null } | { ok: false; message: string; linkFor: string | null };

const NOT_COMPLETED = 'The sign-in with your organization account could not be completed. Please try again.';
const EXPIRED = 'The sign-in with your organization account took too long or was started in another window. Please try again.';

const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/**
 * OpenID Connect against the provider of OIDC_*: authorization code flow with PKCE, state and nonce. The
 * request's checks wait in a sealed cookie, not in a session, until the provider sends the browser back.
 * Plain http is allowed only for a provider on this machine.
 */
export class OidcSignIn {
  private readonly logger = new Logger('OpenID Connect');
  private readonly stateCookie: OidcStateCookie;

  private constructor(
    private readonly configuration: client.Configuration,
    private readonly callbackUrl: string,
    serverSecret: string,
  ) {
    this.stateCookie = new OidcStateCookie(serverSecret);
  }

  /** The provider of OIDC_*, discovered; null when OpenID Connect is not configured. */
  static async discover(config: AppConfig): Promise<OidcSignIn | null> {
    if (!config.OIDC_ISSUER_URL || !config.OIDC_CLIENT_ID || !config.OIDC_CLIENT_SECRET) return null;
    const issuer = new URL(config.OIDC_ISSUER_URL);
    const configuration = await client
      .discovery(issuer, config.OIDC_CLIENT_ID, config.OIDC_CLIENT_SECRET, undefined, {
        execute: issuer.protocol === 'http:' && isLoopback(issuer) ? [client.allowInsecureRequests] : [],
      })
      .catch((error: Error) => {
        throw new Error(`OpenID Connect discovery at ${issuer.href} failed: ${error.message}`);
      });
    const signIn = new OidcSignIn(configuration, `${config.PUBLIC_URL}/api/login/callback`, config.SESSION_SECRET);
    signIn.logger.log(`sign-in through ${issuer.href}`);
    return signIn;
  }

  /**
   * Where to send the browser, and the cookie its way back is checked against. `linkFor`: the signed-in account
   * that asked to link its organization account; `secure`: the request came over HTTPS.
   */
  async start(linkFor: string | null, secure: boolean): Promise<{ location: string; cookie: string }> {
    const checks: AuthorizationChecks = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
    };
    const location = client.buildAuthorizationUrl(this.configuration, {
      redirect_uri: this.callbackUrl,
      scope: 'openid email profile',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
    return { location: location.href, cookie: this.stateCookie.issue(checks, linkFor, secure) };
  }

  /** Checks the provider's answer (`requestUrl`: the callback's path and query) against the request's cookie and reads who signed in. */
  async finish(requestUrl: string, cookieHeader: string | undefined): Promise<OidcAnswer> {
    const pending = this.stateCookie.read(cookieHeader);
    if (!pending) return { ok: false, message: EXPIRED, linkFor: null };
    try {
      const query = requestUrl.includes('?') ? requestUrl.slice(requestUrl.indexOf('?')) : '';
      return { ok: true, identity: await this.identity(query, pending), linkFor: pending.linkFor };
    } catch (error) {
      return { ok: false, message: this.refusal(error), linkFor: pending.linkFor };
    }
  }

  /** The `Set-Cookie` value that ends a sign-in's checks once the provider has answered. */
  clearCookie(secure: boolean): string {
    return OidcStateCookie.cleared(secure);
  }

  private async identity(query: string, checks: AuthorizationChecks): Promise<OidcIdentity> {
    const currentUrl = new URL(this.callbackUrl);
    currentUrl.search = query;
    const tokens = await client.authorizationCodeGrant(this.configuration, currentUrl, {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
    });
    // expectedNonce makes the ID token, and so its subject, required
    const { sub, iss } = tokens.claims()!;
    const info = await client.fetchUserInfo(this.configuration, tokens.access_token, sub);
    return {
      issuer: iss,
      subject: sub,
      email: info.email?.toLowerCase() ?? null,
      emailVerified: info.email_verified === true,
      firstName: info.given_name ?? null,
      lastName: info.family_name ?? null,
      profileImageUrl: info.picture ?? null,
    };
  }

  private refusal(error: unknown): string {
    if (error instanceof client.AuthorizationResponseError) {
      return `The identity provider refused the sign-in: ${error.error_description ?? error.error}`;
    }
    this.logger.warn(`an answer of the identity provider was refused: ${(error as Error).message}`);
    return NOT_COMPLETED;
  }
}
