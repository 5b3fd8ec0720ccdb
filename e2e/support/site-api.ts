import { ADMIN, type Site } from './server';
import { simpleBreaker } from '../../api/test/breaker-bodies';

/** Signs the admin in on one replica through the JSON login, for tests that talk to several replicas directly. */
export async function apiSignIn(site: Site): Promise<string> {
  const response = await fetch(`${site.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

/** A request to one replica with a session cookie and, when given, a JSON body. */
export const siteApi = (site: Site, cookie: string, path: string, method = 'GET', body?: unknown) =>
  fetch(`${site.url}${path}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

/** A new simple breaker: 5 failures open it for 30 s unless the settings say otherwise. */
export async function createBreaker(site: Site, cookie: string, name: string, settings: Record<string, number> = {}) {
  const response = await siteApi(site, cookie, '/api/circuit-breakers', 'POST', simpleBreaker(name, { successThreshold: 1, ...settings }));
  return (await response.json()) as { id: number; name: string };
}

/**
 * A new breaker (simple, with the given settings) in front of a new service on the built-in chaos downstream that
 * fails at failureRate: each POST /api/services/{id}/test is one call through the breaker on that replica.
 */
export async function breakerBehindChaos(site: Site, cookie: string, name: string, settings: Record<string, number>, failureRate: number) {
  const breaker = await createBreaker(site, cookie, name, settings);
  const service = await (
    await siteApi(site, cookie, '/api/services', 'POST', {
      name,
      endpoint: '/api/chaos/1',
      failureRate,
      averageResponseTime: 1,
      circuitBreakerConfigId: breaker.id,
    })
  ).json();
  // the chaos downstream answers at the service's own failure rate under its own id
  await siteApi(site, cookie, `/api/services/${service.id}`, 'PATCH', { endpoint: `/api/chaos/${service.id}` });
  return { breaker, service: service as { id: number } };
}
