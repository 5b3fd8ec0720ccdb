import type { AuthUser } from '@cbh/contracts';

/**
 * Who is signed in, asked once before the first paint with a plain fetch, so that a visitor who is signed out on a
 * page no remote owns never loads the store (RTK and the api client). Undefined when the answer is neither yes nor
 * no (an error, no network): the store then asks again and shows what went wrong.
 */
export async function probeSession(): Promise<AuthUser | null | undefined> {
  try {
    // index.html preloads this request with credentials included: it is taken only while the two match
    const response = await fetch('/api/auth/user', { credentials: 'include', headers: { accept: 'application/json' } });
    if (response.status === 401) return null;
    return response.ok ? ((await response.json()) as AuthUser) : undefined;
  } catch {
    return undefined;
  }
}
