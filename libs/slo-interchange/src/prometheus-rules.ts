import { BURN_RATE_ALERTS, BURN_RATE_WINDOWS, SLO_WINDOW_DAYS, type BurnSeverity } from '@cbh/contracts';
import { stringify } from 'yaml';
import { errorRatioExpr, type BreakerRef } from './hub-series';
import { dnsLabel, ratioOfPercent, type SloDefinition } from './slo-definition';

/*
 * An SLO as Prometheus recording and alerting rules, in the shape Sloth generates (its rule names and sloth_* labels),
 * so that Sloth's Grafana dashboards and the alert routing written for it work on the hub's SLOs as they are:
 * - slo:sli_error:ratio_rate<w> for each burn-rate window (5m … 3d), the share of bad events, and over the SLO's window
 *   the mean of the 5m ratios, as Sloth reckons it (cheaper than a 30-day rate of every raw series);
 * - slo:objective:ratio, slo:error_budget:ratio and the burn rates and budget left derived from them;
 * - the page and ticket alerts of BURN_RATE_ALERTS, each firing while both its long and its short window burn faster
 *   than its rate.
 */

export interface RecordingRule {
  record: string;
  expr: string;
  labels: Record<string, string>;
}
export interface AlertingRule {
  alert: string;
  expr: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}
export interface RuleGroup {
  name: string;
  rules: (RecordingRule | AlertingRule)[];
}

export interface RuleOptions {
  /** The hub's breakers (GET /api/circuit-breakers), to name the breakers an indicator lists by id. */
  breakers?: readonly BreakerRef[];
}

/** The alert names, one per severity: an SLO's alert is told apart by its sloth_* labels. */
export const SLO_ALERT_NAMES: Record<BurnSeverity, string> = { page: 'SloErrorBudgetBurnPage', ticket: 'SloErrorBudgetBurnTicket' };

/** The labels that name the SLO on every series and alert: sloth_id, sloth_service and sloth_slo, as Sloth's. */
export function sloLabels(slo: SloDefinition): Record<string, string> {
  const service = dnsLabel('service' in slo.indicator && slo.indicator.service ? slo.indicator.service : 'hub', 'hub');
  const name = dnsLabel(slo.name);
  return { sloth_id: `${service}-${name}`, sloth_service: service, sloth_slo: name };
}

/** A PromQL selector of the SLO's own series of `metric`. */
const own = (metric: string, labels: Record<string, string>) =>
  `${metric}{${Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .join(', ')}}`;
const ON_SLO = 'on(sloth_id, sloth_slo, sloth_service) group_left';

/** The rule groups of one SLO; throws UnsupportedIndicatorError for an indicator /metrics cannot express. */
export function prometheusRuleGroups(slo: SloDefinition, options: RuleOptions = {}): RuleGroup[] {
  const ids = sloLabels(slo);
  const objective = ratioOfPercent(slo.target);
  // the budget from whole thousandths of a percent, so that 99.9 % leaves 0.001 and not 0.0009999999999999432
  const budget = (100_000 - Math.round(slo.target * 1000)) / 100_000;
  const period = slo.window;

  const sli: RecordingRule[] = BURN_RATE_WINDOWS.map((window) => ({
    record: `slo:sli_error:ratio_rate${window}`,
    expr: errorRatioExpr(slo.indicator, window, options.breakers),
    labels: { ...ids, sloth_window: window },
  }));
  const fiveMinutes = own('slo:sli_error:ratio_rate5m', ids);
  sli.push({
    record: `slo:sli_error:ratio_rate${period}`,
    expr: `sum_over_time(${fiveMinutes}[${period}])\n/ ignoring (sloth_window)\ncount_over_time(${fiveMinutes}[${period}])`,
    labels: { ...ids, sloth_window: period },
  });

  const errorBudget = own('slo:error_budget:ratio', ids);
  const meta: RecordingRule[] = [
    { record: 'slo:objective:ratio', expr: `vector(${objective})`, labels: ids },
    { record: 'slo:error_budget:ratio', expr: `vector(${budget})`, labels: ids },
    { record: 'slo:time_period:days', expr: `vector(${SLO_WINDOW_DAYS[period]})`, labels: ids },
    { record: 'slo:current_burn_rate:ratio', expr: `${fiveMinutes}\n/ ${ON_SLO}\n${errorBudget}`, labels: ids },
    {
      record: 'slo:period_burn_rate:ratio',
      expr: `${own(`slo:sli_error:ratio_rate${period}`, ids)}\n/ ${ON_SLO}\n${errorBudget}`,
      labels: ids,
    },
    { record: 'slo:period_error_budget_remaining:ratio', expr: `1 - ${own('slo:period_burn_rate:ratio', ids)}`, labels: ids },
    { record: 'sloth_slo_info', expr: 'vector(1)', labels: { ...ids, sloth_objective: String(slo.target) } },
  ];

  const alerts: AlertingRule[] = (['page', 'ticket'] as const).map((severity) => ({
    alert: SLO_ALERT_NAMES[severity],
    expr: burnExpr(severity, ids, budget),
    labels: { severity, sloth_severity: severity },
    annotations: {
      summary: `${slo.name}: the error budget burns too fast`,
      description: `(${severity}) ${slo.name} burns its ${period} error budget of ${slo.target} % too fast, over a long and a short window alike.`,
    },
  }));

  return [
    { name: `cbh-slo-sli-recordings-${ids.sloth_id}`, rules: sli },
    { name: `cbh-slo-meta-recordings-${ids.sloth_id}`, rules: meta },
    { name: `cbh-slo-alerts-${ids.sloth_id}`, rules: alerts },
  ];
}

/** Either of the severity's window pairs burning faster than its rate, both windows of the pair at once. */
function burnExpr(severity: BurnSeverity, ids: Record<string, string>, budget: number): string {
  const over = (window: string, rate: number) =>
    `max(${own(`slo:sli_error:ratio_rate${window}`, ids)} > (${rate} * ${budget})) without (sloth_window)`;
  return BURN_RATE_ALERTS.filter((alert) => alert.severity === severity)
    .map((alert) => `(\n${over(alert.short, alert.burnRate)}\nand\n${over(alert.long, alert.burnRate)}\n)`)
    .join('\nor\n');
}

/** The SLO's rules as a Prometheus rule file (YAML), ready for `promtool check rules` and rule_files. */
export function prometheusRules(slo: SloDefinition, options: RuleOptions = {}): string {
  return stringify({ groups: prometheusRuleGroups(slo, options) }, { lineWidth: 0, blockQuote: 'literal', aliasDuplicateObjects: false });
}
