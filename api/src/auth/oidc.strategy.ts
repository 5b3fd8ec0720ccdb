import { Logger } from '@nestjs/common';
import * as client from 'openid-client';
import { Strategy } from 'openid-client/passport';
import type { PassportStatic } from 'passport';
import type { AppConfig } from '../config/config';
import type { SessionUser } from './session-user';

export const OIDC_STRATEGY = 'oidc';

export interface OidcProfile {
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
}

const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/**
 * Registers the OpenID Connect strategy when OIDC_* is set: authorization code flow with PKCE, the account
 * found (or created as viewer) by the provider's verified e-mail. Plain http is allowed only for a
 * provider on this machine.
 */
export async function configureOidc(
  config: AppConfig,
  passport: PassportStatic,
  signIn: (profile: OidcProfile) => Promise<SessionUser>,
): Promise<boolean> {
  if (!config.OIDC_ISSUER_URL || !config.OIDC_CLIENT_ID || !config.OIDC_CLIENT_SECRET) return false;
  const issuer = new URL(config.OIDC_ISSUER_URL);
  const oidc = await client
    .discovery(issuer, config.OIDC_CLIENT_ID, config.OIDC_CLIENT_SECRET, undefined, {
      execute: issuer.protocol === 'http:' && isLoopback(issuer) ? [client.allowInsecureRequests] : [],
    })
    .catch((error: Error) => {
      throw new Error(`OpenID Connect discovery at ${issuer.href} failed: ${error.message}`);
    });

  passport.use(
    OIDC_STRATEGY,
    new Strategy(
      { config: oidc, scope: 'openid email profile', callbackURL: `${config.PUBLIC_URL}/api/login/callback` },
      (tokens, done) => {
        const sub = tokens.claims()?.sub;
        if (!sub) return done(null, false, { message: 'The identity provider sent no subject' });
        client
          .fetchUserInfo(oidc, tokens.access_token, sub)
          .then((info) => {
            if (!info.email || info.email_verified === false) {
              return done(null, false, { message: 'The identity provider did not confirm an e-mail address' });
            }
            return signIn({
              email: info.email.toLowerCase(),
              firstName: info.given_name ?? null,
              lastName: info.family_name ?? null,
              profileImageUrl: info.picture ?? null,
            }).then((user) => done(null, user));
          })
          .catch((error: Error) => done(null, false, { message: error.message }));
      },
    ),
  );
  new Logger('OpenID Connect').log(`sign-in through ${issuer.href}`);
  return true;
}
