import type { BreakerConfigView, SloView } from '@cbh/contracts';
import { agentBreaker, agentReport, sendAgentReport, serviceToken } from '../../test/agent-reports';
import { apiForThisFile, DEMO_PASSWORD, signIn } from '../../test/test-api';

const spec = apiForThisFile();
const call = (path: string, method = 'GET', body?: unknown, cookie = spec.admin) => spec.api.call(path, { method, body, cookie });

async function createSlo(body: Record<string, unknown>): Promise<SloView> {
  const made = await call('/api/slos', 'POST', body);
  expect(made.status).toBe(201);
  return (await made.json()) as SloView;
}

/** A month three months back, in UTC: whole, past, within the days kept and out of reach of a new SLO's first count. */
const now = new Date();
const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 1));
const MONTH = first.toISOString().slice(0, 7);
const dayOfMonth = (day: number) => Math.floor(first.getTime() / 86_400_000) + day - 1;

/** The counts the hub keeps of an SLO's day, written as the counter rolls them up. */
const countDay = (sloId: number, day: number, good: number, total: number) =>
  spec.api.sql('INSERT INTO slo_days (slo_id, day, good, total) VALUES ($1, $2, $3, $4)', [sloId, dayOfMonth(day), good, total]);

let slos: Record<'calls' | 'latency' | 'quiet' | 'other' | 'hub', SloView>;

beforeAll(async () => {
  // an agent of the service checkout, reporting its breaker stripe
  const token = await serviceToken(spec.api, spec.admin, 'checkout');
  const report = agentReport('checkout', 'checkout-1', [agentBreaker('stripe', { successes: 1, failures: 0 })]);
  expect((await sendAgentReport(spec.api.baseUrl, token, report)).status).toBe(200);
  const breakers = (await (await call('/api/circuit-breakers?service=checkout')).json()) as BreakerConfigView[];
  const stripe = breakers.find((breaker) => breaker.name === 'stripe')!;
  const [hub] = (await (await call('/api/circuit-breakers?source=hub')).json()) as BreakerConfigView[];

  slos = {
    // names the service
    calls: await createSlo({
      name: 'Checkout, calls',
      target: 99,
      window: '30d',
      indicator: { kind: 'breaker-calls', service: 'checkout' },
    }),
    // names one of its breakers by id
    latency: await createSlo({
      name: 'Stripe latency',
      target: 99.9,
      window: '7d',
      indicator: { kind: 'breaker-latency', breakers: [stripe.id], thresholdMs: 100 },
    }),
    quiet: await createSlo({
      name: 'Checkout quiet',
      target: 99.5,
      window: '28d',
      indicator: { kind: 'breaker-calls', service: 'checkout' },
    }),
    // not the service's
    other: await createSlo({ name: 'Ledger calls', target: 99, window: '30d', indicator: { kind: 'breaker-calls', service: 'ledger' } }),
    hub: await createSlo({ name: 'Hub calls', target: 99, window: '30d', indicator: { kind: 'breaker-calls', breakers: [hub!.id] } }),
  };
  // calls: 990 of 1,000 good on the 1st, 1,000 of 1,000 on the 2nd: 99.5 % against 99, half the budget left
  await countDay(slos.calls.id, 1, 990, 1000);
  await countDay(slos.calls.id, 2, 1000, 1000);
  // latency: 995 of 1,000 against 99.9: missed, five times the budget spent (-400 %)
  await countDay(slos.latency.id, 3, 995, 1000);
  await countDay(slos.other.id, 1, 1, 1000);
  await countDay(slos.hub.id, 1, 1, 1000);
});

const report = (query: string, cookie = spec.admin) => call(`/api/slos/report${query}`, 'GET', undefined, cookie);

it("writes a row per SLO of the service, with the month's SLI, budget left, events and verdict, as CSV", async () => {
  const response = await report(`?service=checkout&month=${MONTH}&format=csv`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(response.headers.get('content-disposition')).toBe(`attachment; filename="slos-checkout-${MONTH}.csv"`);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await response.text()).toBe(
    [
      `# service checkout, ${MONTH}, 3 SLOs`,
      'slo,target_percent,window,sli_percent,budget_remaining_percent,good,total,status',
      'Checkout quiet,99.5,28d,,100.0,0,0,no-events',
      '"Checkout, calls",99,30d,99.500,50.0,1990,2000,met',
      'Stripe latency,99.9,7d,99.500,-400.0,995,1000,missed',
      '',
    ].join('\n'),
  );
});

it('writes the same as a printable page without script, each SLO linking to its own report, for whoever may read breakers', async () => {
  const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
  const response = await report(`?service=checkout&month=${MONTH}`, viewer);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
  const html = await response.text();
  expect(html).toContain(`<h1>checkout — ${MONTH}</h1>`);
  expect(html).toContain('3 SLOs of the service checkout: 2 met or without events, <strong class="miss">1 missed</strong>');
  expect(html).toContain(`<a href="/api/slos/${slos.calls.id}/report?month=${MONTH}">Checkout, calls</a>`);
  expect(html).toContain(
    '<td class="miss">99.500 %</td><td class="miss">-400.0 %</td><td>995</td><td>1,000</td><td class="miss">missed</td>',
  );
  expect(html).not.toContain('Ledger calls');
  expect(html).not.toContain('Hub calls');
  expect(html).not.toContain('<script');
});

it('answers 400 for a missing service or a bad month, 404 for a service without SLOs, 401 signed out', async () => {
  const refusal = async (query: string) => {
    const response = await report(query);
    return { status: response.status, message: ((await response.json()) as { message: string }).message };
  };
  expect(await refusal(`?month=${MONTH}`)).toEqual({ status: 400, message: 'service: is required' });
  expect(await refusal('?service=checkout&month=2026-13')).toEqual({ status: 400, message: 'month: must be a month YYYY-MM' });
  expect(await refusal('?service=Checkout!&month=2026-01')).toEqual({
    status: 400,
    message: 'service: must be a service name: lower-case letters, digits and dashes, at most 64',
  });
  expect((await refusal(`?service=checkout&month=${MONTH}&extra=1`)).status).toBe(400);
  expect(await refusal(`?service=nobody&month=${MONTH}`)).toEqual({ status: 404, message: 'No SLO of the service nobody' });
  expect((await spec.api.call(`/api/slos/report?service=checkout&month=${MONTH}`, { cookie: null })).status).toBe(401);
  // the report of one SLO is still there
  expect((await call(`/api/slos/${slos.quiet.id}/report?month=${MONTH}&format=csv`)).status).toBe(200);
});
