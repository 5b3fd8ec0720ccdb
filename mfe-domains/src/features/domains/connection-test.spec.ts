import { CONNECTION_TEST_TIMEOUT_MS, testConnection } from './connection-test';

it('sends a no-cors HEAD request to the site over https and times the answer, whatever it is', async () => {
  const requests: [string, RequestInit | undefined][] = [];
  let clock = 1000;
  const fetchImpl = (async (url: string, init?: RequestInit) => {
    requests.push([url, init]);
    clock += 87.4;
    // what a no-cors request gets: an opaque answer with nothing readable
    return new Response(null, { status: 200 });
  }) as unknown as typeof fetch;
  expect(await testConnection('shop.example.test', { fetchImpl, now: () => clock })).toEqual({ ok: true, ms: 87 });
  expect(requests[0]![0]).toBe('https://shop.example.test/');
  expect(requests[0]![1]).toMatchObject({ method: 'HEAD', mode: 'no-cors', credentials: 'omit', cache: 'no-store' });
});

it('calls a site that cannot be reached not accessible', async () => {
  const fetchImpl = (async () => {
    throw new TypeError('Failed to fetch');
  }) as unknown as typeof fetch;
  expect(await testConnection('down.example.test', { fetchImpl })).toEqual({ ok: false });
});

it('gives up on a site that does not answer in time', async () => {
  jest.useFakeTimers();
  const fetchImpl = ((_url: string, init?: RequestInit) =>
    new Promise((_resolve, reject) =>
      init!.signal!.addEventListener('abort', () => reject(new Error('aborted'))),
    )) as unknown as typeof fetch;
  const result = testConnection('slow.example.test', { fetchImpl });
  jest.advanceTimersByTime(CONNECTION_TEST_TIMEOUT_MS);
  expect(await result).toEqual({ ok: false });
  jest.useRealTimers();
});
