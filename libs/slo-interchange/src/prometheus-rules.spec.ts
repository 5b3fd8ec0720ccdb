import { parse } from 'yaml';
import { prometheusRules, UnsupportedIndicatorError, type BreakerRef, type SloDefinition } from './index';
import { counter, expectedAlert, minutes, promtool, testRules } from './promtool.test-kit';

/** An agent's breaker `stock` of the service checkout, on one instance, as the writing replica puts it at /metrics. */
const STOCK = 'name="stock",service="checkout",instance="checkout-1"';
/** The hub's own breaker, on two replicas (no service label). */
const GATEWAY = (replica: number) => `name="Payment Gateway",instance="api-${replica}:3000"`;
const BREAKERS: BreakerRef[] = [
  { id: 1, name: 'Payment Gateway', service: null },
  { id: 2, name: 'stock', service: 'checkout' },
  { id: 3, name: 'search (v2.*)', service: 'search' },
  { id: 4, name: 'say "hi"\\', service: null },
];

const CALLS: SloDefinition = {
  name: 'Checkout calls',
  target: 99.9,
  window: '30d',
  indicator: { kind: 'breaker-calls', service: 'checkout' },
};

/** One breaker's calls a minute, successful and failed, and refused ones (an agent's refusals are not_permitted). */
function calls(labels: string, successful: number[], failed: number[], refused?: number[]) {
  return [
    { series: `resilience4j_circuitbreaker_calls_seconds_count{kind="successful",${labels}}`, values: counter(successful) },
    { series: `resilience4j_circuitbreaker_calls_seconds_count{kind="failed",${labels}}`, values: counter(failed) },
    { series: `resilience4j_circuitbreaker_calls_seconds_count{kind="ignored",${labels}}`, values: counter(successful.map(() => 0)) },
    {
      series: `resilience4j_circuitbreaker_not_permitted_calls_total{kind="not_permitted",${labels}}`,
      values: counter(refused ?? successful.map(() => 0)),
    },
  ];
}
/** Another service failing all along: an SLO of checkout must not see it. */
const NOISE = calls('name="search",service="search",instance="search-1"', minutes(480, 0), minutes(480, 500));

const expectSuccess = (run: { status: number | null; output: string }) =>
  expect({ status: run.status, output: run.output }).toEqual({ status: 0, output: expect.stringContaining('SUCCESS') });

describe('prometheusRules', () => {
  it('writes rule files promtool accepts, for each indicator /metrics can express, over each window', () => {
    const slos: [SloDefinition, number][] = [
      [CALLS, 17],
      [{ ...CALLS, name: 'By id', window: '7d', indicator: { kind: 'breaker-calls', breakers: [1, 2, 3, 4] } }, 17],
      [
        {
          ...CALLS,
          name: 'Fast',
          target: 99.999,
          window: '28d',
          indicator: { kind: 'breaker-latency', service: 'checkout', thresholdMs: 250 },
        },
        17,
      ],
      [{ ...CALLS, name: 'Fast by id', indicator: { kind: 'breaker-latency', breakers: [4], thresholdMs: 10_000 } }, 17],
    ];
    for (const [slo, rules] of slos) {
      const run = promtool(['check', 'rules', 'rules.yml'], { 'rules.yml': prometheusRules(slo, { breakers: BREAKERS }) });
      expect({ status: run.status, output: run.output }).toEqual({
        status: 0,
        output: expect.stringContaining(`SUCCESS: ${rules} rules found`),
      });
    }
  });

  it("names Sloth's series and labels, and the hub's breakers by name, with or without their service", () => {
    const file = parse(prometheusRules({ ...CALLS, indicator: { kind: 'breaker-calls', breakers: [1, 3] } }, { breakers: BREAKERS })) as {
      groups: { name: string; rules: { record?: string; alert?: string; expr: string; labels: Record<string, string> }[] }[];
    };
    expect(file.groups.map((group) => group.name)).toEqual([
      'cbh-slo-sli-recordings-hub-checkout-calls',
      'cbh-slo-meta-recordings-hub-checkout-calls',
      'cbh-slo-alerts-hub-checkout-calls',
    ]);
    expect(file.groups.flatMap((group) => group.rules.map((rule) => rule.record ?? rule.alert))).toEqual([
      ...['5m', '30m', '1h', '2h', '6h', '1d', '3d', '30d'].map((window) => `slo:sli_error:ratio_rate${window}`),
      'slo:objective:ratio',
      'slo:error_budget:ratio',
      'slo:time_period:days',
      'slo:current_burn_rate:ratio',
      'slo:period_burn_rate:ratio',
      'slo:period_error_budget_remaining:ratio',
      'sloth_slo_info',
      'SloErrorBudgetBurnPage',
      'SloErrorBudgetBurnTicket',
    ]);
    const [fiveMinutes] = file.groups[0]!.rules;
    expect(fiveMinutes!.labels).toEqual({
      sloth_id: 'hub-checkout-calls',
      sloth_service: 'hub',
      sloth_slo: 'checkout-calls',
      sloth_window: '5m',
    });
    expect(fiveMinutes!.expr).toContain(
      'sum(rate(resilience4j_circuitbreaker_calls_seconds_count{kind="failed",name=~"Payment Gateway",service=""}[5m]) or rate(resilience4j_circuitbreaker_calls_seconds_count{kind="failed",name=~"search \\\\(v2\\\\.\\\\*\\\\)",service="search"}[5m]))',
    );
    expect(file.groups[1]!.rules.slice(0, 3).map((rule) => rule.expr)).toEqual(['vector(0.999)', 'vector(0.001)', 'vector(30)']);
  });

  it('says which indicators the hub’s /metrics cannot express, and which breakers it cannot name', () => {
    const rules = (indicator: SloDefinition['indicator']) => () => prometheusRules({ ...CALLS, indicator }, { breakers: BREAKERS });
    expect(rules({ kind: 'domain-uptime', domains: [1] })).toThrow(
      new UnsupportedIndicatorError(
        "domain-uptime cannot be read from the hub's /metrics: cbh_domain_checks_total counts checks by kind and outcome, not by domain",
      ),
    );
    expect(rules({ kind: 'remote-loads', remote: 'mfe_dashboard' })).toThrow(/^remote-loads cannot be read from the hub's \/metrics/);
    expect(rules({ kind: 'breaker-latency', service: 'checkout', thresholdMs: 300 })).toThrow(
      "breaker-latency under 300 ms cannot be read from the hub's /metrics: cbh_circuitbreaker_call_duration_seconds counts calls in buckets of 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000 ms, so the threshold must be one of them",
    );
    expect(rules({ kind: 'breaker-calls', breakers: [9] })).toThrow(/^breaker 9 is not among the breakers given/);
    expect(rules({ kind: 'breaker-calls', breakers: [] })).toThrow('the indicator names no breakers and no service');
  });
});

// promtool evaluates every rule once a minute over hours of input: seconds each, more on a busy machine
describe('the burn-rate alerts, under promtool test rules', () => {
  jest.setTimeout(120_000);
  // 1,000 calls a minute; six hours of good calls first, so that every window but 1d and 3d is full
  const GOOD_HOURS = minutes(360, 1000);

  it('a fast burn pages when 1h and 5m both burn faster than 14.4 (the 9th minute at 10 % failed), until the short windows are clean', () => {
    // 10 % of calls fail for 30 minutes from 6:00: the 1h window's share passes 14.4 × 0.1 % in its 9th minute (0.9 / 60 = 1.5 %)
    const successful = [...GOOD_HOURS, ...minutes(30, 900), ...minutes(60, 1000)];
    const failed = [...minutes(360, 0), ...minutes(30, 100), ...minutes(60, 0)];
    const page = expectedAlert(CALLS, 'page');
    const run = testRules(prometheusRules(CALLS), [
      {
        name: 'fast burn',
        input_series: [...calls(STOCK, successful, failed), ...NOISE],
        alert_rule_test: [
          { eval_time: '6h', alertname: 'SloErrorBudgetBurnPage', exp_alerts: [] },
          { eval_time: '368m', alertname: 'SloErrorBudgetBurnPage', exp_alerts: [] },
          { eval_time: '369m', alertname: 'SloErrorBudgetBurnPage', exp_alerts: [page] },
          // the burning stopped at 6:30: 5m is clean by 6:36, but 30m and 6h still burn faster than 6 until 30m clears
          { eval_time: '400m', alertname: 'SloErrorBudgetBurnPage', exp_alerts: [page] },
          { eval_time: '418m', alertname: 'SloErrorBudgetBurnPage', exp_alerts: [page] },
          { eval_time: '420m', alertname: 'SloErrorBudgetBurnPage', exp_alerts: [] },
        ],
        promql_expr_test: [
          // 10 % failed against a 0.1 % budget: a burn rate of 100
          {
            expr: 'round(slo:current_burn_rate:ratio)',
            eval_time: '380m',
            exp_samples: [
              {
                labels: '{sloth_id="checkout-checkout-calls", sloth_service="checkout", sloth_slo="checkout-calls", sloth_window="5m"}',
                value: 100,
              },
            ],
          },
        ],
      },
    ]);
    expectSuccess(run);
  });

  it('a slow burn opens a ticket only (6h and 3d faster than 1, in the 91st minute at 0.5 % failed), never a page', () => {
    const slo: SloDefinition = { ...CALLS, name: 'Payments', indicator: { kind: 'breaker-calls', breakers: [1, 2] } };
    // 0.5 % of the calls fail from 6:00, spread over the hub's breaker on two replicas and the agent's: below the page's
    // 6 × 0.1 %, above the ticket's 1 × 0.1 % once the 3d window (six good hours, then k minutes) has 5k / (360 + k) ‰ > 1
    const half = (perMinute: number[]) => perMinute.map((calls) => calls / 2);
    const successful = [...GOOD_HOURS, ...minutes(100, 995)];
    const failed = [...minutes(360, 0), ...minutes(100, 5)];
    const ticket = expectedAlert(slo, 'ticket', { breakers: BREAKERS });
    const run = testRules(prometheusRules(slo, { breakers: BREAKERS }), [
      {
        name: 'slow burn',
        input_series: [
          ...calls(
            GATEWAY(1),
            half(successful),
            half(failed).map(() => 0),
            half(failed),
          ),
          ...calls(GATEWAY(2), half(successful), half(failed)),
          ...calls(
            STOCK,
            successful.map(() => 0),
            failed.map(() => 0),
          ),
          ...NOISE,
        ],
        alert_rule_test: [
          { eval_time: '449m', alertname: 'SloErrorBudgetBurnTicket', exp_alerts: [] },
          { eval_time: '451m', alertname: 'SloErrorBudgetBurnTicket', exp_alerts: [ticket] },
          { eval_time: '451m', alertname: 'SloErrorBudgetBurnPage', exp_alerts: [] },
          { eval_time: '460m', alertname: 'SloErrorBudgetBurnPage', exp_alerts: [] },
        ],
      },
    ]);
    expectSuccess(run);
  });

  it('no burn, or no calls at all, raises nothing and leaves the whole budget', () => {
    const quiet: SloDefinition = { ...CALLS, name: 'Quiet', indicator: { kind: 'breaker-calls', service: 'quiet' } };
    const labels = '{sloth_id="checkout-checkout-calls", sloth_service="checkout", sloth_slo="checkout-calls"}';
    const run = testRules(prometheusRules(CALLS), [
      {
        name: 'no burn',
        input_series: [...calls(STOCK, [...GOOD_HOURS, ...minutes(60, 1000)], minutes(420, 0)), ...NOISE],
        alert_rule_test: ['1h', '6h', '7h'].flatMap((eval_time) => [
          { eval_time, alertname: 'SloErrorBudgetBurnPage', exp_alerts: [] },
          { eval_time, alertname: 'SloErrorBudgetBurnTicket', exp_alerts: [] },
        ]),
        promql_expr_test: [
          {
            expr: 'slo:sli_error:ratio_rate5m',
            eval_time: '7h',
            exp_samples: [{ labels: `slo:sli_error:ratio_rate5m${labels.replace('}', ', sloth_window="5m"}')}`, value: 0 }],
          },
          {
            expr: 'slo:period_error_budget_remaining:ratio',
            eval_time: '7h',
            exp_samples: [{ labels: `slo:period_error_budget_remaining:ratio${labels.replace('}', ', sloth_window="30d"}')}`, value: 1 }],
          },
        ],
      },
    ]);
    expectSuccess(run);
    // a breaker without calls: its series stand still, and the ratio is no number rather than 0/0
    const idle = testRules(prometheusRules(quiet), [
      {
        name: 'no calls',
        input_series: calls('name="idle",service="quiet",instance="quiet-1"', minutes(120, 0), minutes(120, 0)),
        alert_rule_test: [{ eval_time: '2h', alertname: 'SloErrorBudgetBurnPage', exp_alerts: [] }],
        promql_expr_test: [{ expr: 'slo:sli_error:ratio_rate5m or slo:sli_error:ratio_rate30d', eval_time: '2h', exp_samples: [] }],
      },
    ]);
    expectSuccess(idle);
  });

  it('reads latency from the histogram bucket of the threshold, as Prometheus 2 and 3 label it', () => {
    const slo: SloDefinition = {
      ...CALLS,
      name: 'Checkout speed',
      indicator: { kind: 'breaker-latency', service: 'checkout', thresholdMs: 1000 },
    };
    // two instances, their `le` as Prometheus 2 ("1") and 3 ("1.0") keep it; from 6:00, 5 % of the calls take over a second
    const histogram = (instance: string, le: string, slow: number[]) => {
      const labels = `name="stock",service="checkout",instance="${instance}"`;
      return [
        { series: `cbh_circuitbreaker_call_duration_seconds_bucket{le="${le}",${labels}}`, values: counter(slow.map((n) => 500 - n)) },
        { series: `cbh_circuitbreaker_call_duration_seconds_bucket{le="+Inf",${labels}}`, values: counter(slow.map(() => 500)) },
        { series: `cbh_circuitbreaker_call_duration_seconds_count{${labels}}`, values: counter(slow.map(() => 500)) },
      ];
    };
    const slow = [...minutes(360, 0), ...minutes(30, 25)];
    const page = expectedAlert(slo, 'page');
    const run = testRules(prometheusRules(slo), [
      {
        name: 'slow calls',
        input_series: [...histogram('checkout-1', '1', slow), ...histogram('checkout-2', '1.0', slow)],
        // 5 % slow: the 1h window passes 1.44 % in its 18th minute (0.05 × 18 / 60 = 1.5 %)
        alert_rule_test: [
          { eval_time: '376m', alertname: 'SloErrorBudgetBurnPage', exp_alerts: [] },
          { eval_time: '378m', alertname: 'SloErrorBudgetBurnPage', exp_alerts: [page] },
        ],
      },
    ]);
    expectSuccess(run);
  });
});
