// No schema library here: the screens import these words, and a module with schemas would bring one along.
import { serviceAccountNameOf } from './service-account-vocabulary';

/** Every personal access token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const TOKEN_PREFIX = 'cbh_';
/** How much of a token identifies it in lists, logs and the audit trail: the prefix and 8 characters of the secret. */
export const TOKEN_SHOWN_LENGTH = TOKEN_PREFIX.length + 8;
/** Tokens one account may hold at once: each is a standing credential, so the list stays one a person can review. */
export const TOKENS_PER_ACCOUNT = 50;
export const TOKEN_MAX_DAYS = 365;

/** A token as its owner lists it: never the secret. */
export interface ApiTokenView {
  id: string;
  name: string;
  /** The token's first characters (TOKEN_SHOWN_LENGTH), which name it in lists, logs and the audit trail. */
  prefix: string;
  permissions: string[];
  /** The remotes it may release; null: every remote its owner may. */
  remotes: string[] | null;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  lastUsedFrom: string | null;
}

/** The answer to creating a token: the only time its secret is shown. */
export interface CreatedApiTokenView {
  id: string;
  name: string;
  token: string;
  prefix: string;
  permissions: string[];
  remotes: string[] | null;
  expiresAt: string;
  createdAt: string;
}

/** Which token a change was made through, as the audit trail records it. */
export interface TokenVia {
  tokenId: string;
  name: string;
  prefix: string;
}

/**
 * Who made an audited change, as the audit trail shows it: the account's e-mail, or a service account's name, and,
 * for a change made with an access token, which token ("root@example.com via token 'ci-export' (cbh_3fA9…)",
 * "service account 'ci-bot' via token 'deploy' (cbh_3fA9…)").
 */
export function auditActorText(entry: { actorEmail: string | null; via: TokenVia | null }): string {
  const serviceAccount = serviceAccountNameOf(entry.actorEmail);
  const who = serviceAccount !== null ? `service account '${serviceAccount}'` : (entry.actorEmail ?? 'the system');
  return entry.via ? `${who} via token '${entry.via.name}' (${entry.via.prefix}…)` : who;
}
