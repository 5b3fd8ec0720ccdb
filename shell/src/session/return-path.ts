/**
 * The page a signed-out visitor asked for, kept while they sign in: the sign-in pages (the form and the OpenID
 * Connect provider) always send the browser back to /, and the shell then takes them on to this page. Kept in this
 * tab's sessionStorage for a quarter of an hour; only a path of this site is ever followed.
 */
const KEY = 'cbh.return-after-sign-in';
export const RETURN_PATH_TTL_MS = 15 * 60_000;

interface Kept {
  path: string;
  at: number;
}

/** A path of this site: one leading slash (not `//host` nor `/\host`), and not one of the API's pages. */
export function isSitePath(path: string): boolean {
  return /^\/(?![/\\])/.test(path) && !/^\/api(\/|$|\?|#)/.test(path);
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage refused (a privacy setting): the visitor simply lands on home
  }
}

/** Keeps `path` (pathname, search and hash) to come back to after signing in. */
export function rememberReturnPath(path: string, now = Date.now()): void {
  if (!isSitePath(path)) return;
  try {
    storage()?.setItem(KEY, JSON.stringify({ path, at: now } satisfies Kept));
  } catch {
    // a full or refused storage only loses the way back
  }
}

/** The kept path, if one is kept, recent and of this site; it stays kept until forgetReturnPath. */
export function peekReturnPath(now = Date.now()): string | null {
  try {
    const kept = JSON.parse(storage()?.getItem(KEY) ?? 'null') as Partial<Kept> | null;
    if (!kept || typeof kept.path !== 'string' || typeof kept.at !== 'number') return null;
    if (now - kept.at > RETURN_PATH_TTL_MS || kept.at > now + 60_000) return null;
    return isSitePath(kept.path) ? kept.path : null;
  } catch {
    return null;
  }
}

/** Where a visitor who has just signed in is sent on to (the sign-in pages land on /): the kept path, if any. */
export function returnPathAfterSignIn(session: unknown, pathname: string): string | null {
  return session && pathname === '/' ? peekReturnPath() : null;
}

export function forgetReturnPath(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
