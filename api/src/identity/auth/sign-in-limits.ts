import ipaddr from 'ipaddr.js';
import type { AttemptRule } from './sign-in-attempts.repository';

const MINUTE_MS = 60_000;
/** Failed sign-ins per client and e-mail, and per client, in 15 minutes. */
const CLIENT_WINDOW_MS = 15 * MINUTE_MS;
const MAX_FAILURES_PER_CLIENT_AND_ACCOUNT = 10;
const MAX_FAILURES_PER_CLIENT = 50;
/**
 * Failed sign-ins to one e-mail from anywhere, in an hour: five go free, then each further try waits after the
 * latest failure, 1 minute doubling up to 15. Addresses the account signed in from lately are spared (see
 * signInRules), so failures elsewhere cannot keep the owner out.
 */
const ACCOUNT_WINDOW_MS = 60 * MINUTE_MS;
const FREE_FAILURES_PER_ACCOUNT = 5;
const ACCOUNT_BACKOFF = { firstWaitMs: MINUTE_MS, maxWaitMs: 15 * MINUTE_MS };
/** How long a successful sign-in makes its address a known one for the account. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * MINUTE_MS;

/** Attempts older than every window count for nothing and may go. */
export const SIGN_IN_ATTEMPTS_KEPT_MS = Math.max(CLIENT_WINDOW_MS, ACCOUNT_WINDOW_MS);

/**
 * Who a request counts as: an IPv4 address as it is (an IPv4-mapped IPv6 address too), an IPv6 address by its
 * /64, since one subscriber commonly holds a whole /64 and could otherwise try from a fresh address every time.
 */
export function clientOf(ip: string | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return ip || 'unknown';
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}

/** The keys one sign-in is counted against. */
export interface SignInKeys {
  client: string;
  clientAndAccount: string;
  account: string;
}

export function signInKeys(client: string, email: string): SignInKeys {
  return { client, clientAndAccount: `${client}|${email}`, account: `account|${email}` };
}

/**
 * The limits a sign-in is judged by. The per-account backoff is left out for an address the account signed in
 * from lately (knownAddress): there the client's own limits hold, so nobody can lock the owner out of a device
 * they use by failing against the e-mail from elsewhere.
 */
export function signInRules(keys: SignInKeys, knownAddress: boolean): AttemptRule[] {
  return [
    { key: keys.clientAndAccount, free: MAX_FAILURES_PER_CLIENT_AND_ACCOUNT, windowMs: CLIENT_WINDOW_MS },
    { key: keys.client, free: MAX_FAILURES_PER_CLIENT, windowMs: CLIENT_WINDOW_MS },
    ...(knownAddress
      ? []
      : [{ key: keys.account, free: FREE_FAILURES_PER_ACCOUNT, windowMs: ACCOUNT_WINDOW_MS, backoff: ACCOUNT_BACKOFF }]),
  ];
}
