import { expect, test, type APIRequestContext, type Page } from './test';
import { simpleBreaker } from '../../api/test/breaker-bodies';

/** A breaker's tile on the dashboard wall, found by the link of its name. */
export const breakerTile = (page: Page, name: string) =>
  page.getByTestId('breaker-tile').filter({ has: page.getByRole('link', { name, exact: true }) });

/**
 * Makes breakers of a file's tests through a page's request context (a simple breaker that closes after one trial,
 * unless the settings say otherwise) and deletes each after its test, its running load tests stopped first, so that
 * later files find the seeded breakers as they were. Call once at the top of the file.
 */
export function breakersMadeHere() {
  const made: { request: APIRequestContext; id: number }[] = [];
  test.afterEach(async () => {
    for (const { request, id } of made.splice(0)) {
      for (const session of await (await request.get(`/api/test-sessions?configId=${id}&status=running`)).json()) {
        await request.post(`/api/test-sessions/${session.id}/stop`);
      }
      await request.delete(`/api/circuit-breakers/${id}`);
    }
  });
  return async function createBreaker(request: APIRequestContext, name: string, settings: Record<string, number> = {}) {
    const response = await request.post('/api/circuit-breakers', { data: simpleBreaker(name, { successThreshold: 1, ...settings }) });
    expect(response.status()).toBe(201);
    const breaker = (await response.json()) as { id: number; name: string };
    made.push({ request, id: breaker.id });
    return breaker;
  };
}
