/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { createAppStore } from './api';
import { drillsApi } from './drills';
import { invalidationFor } from './live';

/** Every request made, as 'METHOD /path' and its JSON body; every answer is `{}`, or [] for the list. */
function recordRequests() {
  const requests: { call: string; body: unknown }[] = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input as Request;
    const text = request.method === 'GET' ? '' : await request.text();
    const path = new URL(request.url).pathname;
    requests.push({ call: `${request.method} ${path}`, body: text ? JSON.parse(text) : undefined });
    return Response.json(path === '/api/drills' && request.method === 'GET' ? [] : {});
  }) as typeof fetch;
  return requests;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

it('reads the drills and a drill, and sends a start, a stop and the stop of all to their addresses', async () => {
  const requests = recordRequests();
  const store = createAppStore();
  await store.dispatch(drillsApi.endpoints.getDrills.initiate());
  await store.dispatch(drillsApi.endpoints.getDrill.initiate(4));
  const body = {
    name: 'Payments latency',
    steps: [
      { breaker: 5, fault: { kind: 'latency' as const, rate: 0.25, latencyMs: 800 }, instances: 'all' as const, durationSeconds: 60 },
    ],
  };
  await store.dispatch(drillsApi.endpoints.startDrill.initiate(body));
  await store.dispatch(drillsApi.endpoints.stopDrill.initiate(4));
  await store.dispatch(drillsApi.endpoints.stopAllDrills.initiate());
  expect(requests.filter((request) => request.call.startsWith('POST'))).toEqual([
    { call: 'POST /api/drills', body },
    { call: 'POST /api/drills/4/stop', body: undefined },
    { call: 'POST /api/drills/stop-all', body: undefined },
  ]);
  expect(requests[0]).toEqual({ call: 'GET /api/drills', body: undefined });
  expect(requests[1]).toEqual({ call: 'GET /api/drills/4', body: undefined });
});

it('reads the list and each drill shown again on a live drillChanged', async () => {
  const requests = recordRequests();
  const store = createAppStore();
  const list = store.dispatch(drillsApi.endpoints.getDrills.initiate());
  const drill = store.dispatch(drillsApi.endpoints.getDrill.initiate(4));
  await Promise.all([list, drill]);
  requests.length = 0;

  const action = invalidationFor({ type: 'drillChanged', data: { id: 4, state: 'stopped' } });
  expect(action?.payload).toEqual(['Drills']);
  store.dispatch(action!);
  await settle();
  expect(requests.map((request) => request.call).sort()).toEqual(['GET /api/drills', 'GET /api/drills/4']);
  list.unsubscribe();
  drill.unsubscribe();
});
