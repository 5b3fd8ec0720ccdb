/** How long Test Connection waits for the site before calling it not accessible. */
export const CONNECTION_TEST_TIMEOUT_MS = 10_000;

export type ConnectionResult = { ok: true; ms: number } | { ok: false };

/**
 * The browser's own look at a site (§7): a HEAD request to https://{domain} in no-cors mode, which reads nothing
 * back (an opaque answer) but tells whether the site answered at all, and how fast. A network error, a refused
 * or untrusted TLS connection and a timeout all mean not accessible.
 */
export async function testConnection(
  domain: string,
  { fetchImpl = fetch, now = () => performance.now(), timeoutMs = CONNECTION_TEST_TIMEOUT_MS } = {},
): Promise<ConnectionResult> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const started = now();
  try {
    await fetchImpl(`https://${domain}/`, {
      method: 'HEAD',
      mode: 'no-cors',
      cache: 'no-store',
      credentials: 'omit',
      signal: controller.signal,
    });
    return { ok: true, ms: Math.round(now() - started) };
  } catch {
    return { ok: false };
  } finally {
    clearTimeout(timer);
  }
}
