// No schema library here: the screens import these words, and a module with schemas would bring one along.

/*
 * Service accounts are accounts for machines (CI jobs, services reporting breakers): they hold a role and
 * permissions like a person's account and own access tokens, but never sign in. The e-mail column of such an
 * account holds `<name>@service-account.invalid`: `.invalid` is reserved (RFC 2606), so no mail goes there, and no
 * person can be invited, or sign in through a provider, with such an address.
 */

export const SERVICE_ACCOUNT_EMAIL_DOMAIN = 'service-account.invalid';

/** Service accounts there may be in all: each is a standing identity, so the list stays one people can review. */
export const SERVICE_ACCOUNTS_MAX = 200;

/** 1 to 64 characters of a-z, 0-9 and '-': a name that reads the same in a URL, a log line and an e-mail's local part. */
export const SERVICE_ACCOUNT_NAME_PATTERN = /^[a-z0-9-]{1,64}$/;
export const SERVICE_ACCOUNT_NAME_MAX = 64;

export function serviceAccountEmail(name: string): string {
  return `${name}@${SERVICE_ACCOUNT_EMAIL_DOMAIN}`;
}

/** The service account's name when the address is one's, else null. */
export function serviceAccountNameOf(email: string | null | undefined): string | null {
  if (!email) return null;
  const suffix = `@${SERVICE_ACCOUNT_EMAIL_DOMAIN}`;
  return email.toLowerCase().endsWith(suffix) ? email.slice(0, -suffix.length) : null;
}

export function isServiceAccountEmail(email: string): boolean {
  return serviceAccountNameOf(email) !== null;
}

/** A service account as GET /api/service-accounts lists it. */
export interface ServiceAccountView {
  id: string;
  name: string;
  role: string;
  permissions: string[];
  /** The remotes its tokens may release; null: every remote. */
  remotes: string[] | null;
  isActive: boolean;
  createdAt: string;
  /** The e-mail of the person who created it; null once that account is deleted. */
  createdBy: string | null;
  /** Access tokens it holds, expired ones included until they are revoked. */
  tokenCount: number;
}

/** What an account is: a person's, who signs in, or a service account, which only acts through its tokens. */
export const ACCOUNT_KINDS = ['person', 'service'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];
