import type { RemoteName } from './routes';

/*
 * Service level objectives: what share of what users experienced was good (the SLI), against a target over a
 * rolling window, the error budget that leaves, and how fast it burns. Zod-free, so that the screens can use the words
 * and the arithmetic without a schema library; the bodies' schemas are in slos.ts.
 */

/** The rolling window an objective is judged over. */
export const SLO_WINDOWS = ['7d', '28d', '30d'] as const;
export type SloWindow = (typeof SLO_WINDOWS)[number];
export const SLO_WINDOW_DAYS: Record<SloWindow, number> = { '7d': 7, '28d': 28, '30d': 30 };

/** The windows burn rates are read over (the Google SRE workbook's multiwindow alerts use each of them). */
export const BURN_RATE_WINDOWS = ['5m', '30m', '1h', '2h', '6h', '1d', '3d'] as const;
export type BurnRateWindow = (typeof BURN_RATE_WINDOWS)[number];
export const BURN_RATE_WINDOW_MINUTES: Record<BurnRateWindow, number> = {
  '5m': 5,
  '30m': 30,
  '1h': 60,
  '2h': 120,
  '6h': 360,
  '1d': 1440,
  '3d': 4320,
};

/** What an objective counts. */
export const SLO_INDICATOR_KINDS = ['breaker-calls', 'breaker-latency', 'domain-uptime', 'remote-loads'] as const;
export type SloIndicatorKind = (typeof SLO_INDICATOR_KINDS)[number];
export const SLO_INDICATOR_LABELS: Record<SloIndicatorKind, string> = {
  'breaker-calls': 'Breaker calls',
  'breaker-latency': 'Breaker latency',
  'domain-uptime': 'Domain uptime',
  'remote-loads': 'Remote loads',
};

/**
 * - `breaker-calls`: good = successful calls; bad = failed, timed-out and refused (short-circuited or turned away by
 *   a bulkhead) calls — a refused call is one a user did not get served, though no probe ever sees it;
 * - `breaker-latency`: good = calls answered under `thresholdMs`;
 * - `domain-uptime`: good = successful checks;
 * - `remote-loads`: good = loads of the remote that rendered.
 * Breakers are named by id, or all of one service's (an agent's or scrape target's `service`).
 */
export type SloIndicator =
  | { kind: 'breaker-calls'; breakers?: number[]; service?: string }
  | { kind: 'breaker-latency'; breakers?: number[]; service?: string; thresholdMs: number }
  | { kind: 'domain-uptime'; domains: number[] }
  | { kind: 'remote-loads'; remote: RemoteName };

/** ok; warning (a ticket-level burn); breaching (a page-level burn); exhausted (no budget left in the window). */
export const SLO_STATUSES = ['ok', 'warning', 'breaching', 'exhausted'] as const;
export type SloStatus = (typeof SLO_STATUSES)[number];
export const SLO_STATUS_LABELS: Record<SloStatus, string> = {
  ok: 'OK',
  warning: 'Warning',
  breaching: 'Breaching',
  exhausted: 'Budget exhausted',
};

export const BURN_SEVERITIES = ['page', 'ticket'] as const;
export type BurnSeverity = (typeof BURN_SEVERITIES)[number];

/**
 * Multiwindow, multi-burn-rate alerts as the Google SRE workbook sets them: each fires while both its long and its
 * short window burn faster than `burnRate` (the short one makes it clear soon after the burning stops).
 */
export const BURN_RATE_ALERTS: readonly { severity: BurnSeverity; long: BurnRateWindow; short: BurnRateWindow; burnRate: number }[] = [
  { severity: 'page', long: '1h', short: '5m', burnRate: 14.4 },
  { severity: 'page', long: '6h', short: '30m', burnRate: 6 },
  { severity: 'ticket', long: '1d', short: '2h', burnRate: 3 },
  { severity: 'ticket', long: '3d', short: '6h', burnRate: 1 },
];

/**
 * The events an objective raises for notification rules and escalation policies: slo.burn_rate once per SLO and
 * severity until it clears, slo.budget_exhausted once until the budget is back above nothing, and slo.recovered once
 * no burn-rate alert fires any more (it resolves the SLO's alert group).
 */
export const SLO_EVENTS = ['slo.burn_rate', 'slo.budget_exhausted', 'slo.recovered'] as const;
export type SloEventType = (typeof SLO_EVENTS)[number];

/** The data of slo.burn_rate, slo.budget_exhausted and slo.recovered, as webhooks receive it. */
export interface SloEventData {
  slo: { id: number; name: string; target: number; window: SloWindow; kind: SloIndicatorKind };
  /** slo.burn_rate: the alert that fired, its long window and that window's burn rate */
  severity?: BurnSeverity;
  window?: BurnRateWindow;
  burnRate?: number;
  /** the share of the window's error budget left (1 = untouched, 0 = spent, below 0 = overspent) */
  errorBudgetRemaining: number;
  url: string;
}

export const SLO_LIMITS = {
  slos: 1000,
  /** breakers or domains one indicator names */
  members: 100,
  nameLength: 120,
  descriptionLength: 2000,
  targetMin: 50,
  targetMax: 99.999,
  thresholdMsMax: 600_000,
} as const;

/** Good and all events over some span. */
export interface GoodTotal {
  good: number;
  total: number;
}

/**
 * How fast the budget burns over a span: the share of bad events over the share the target allows (1 spends the
 * budget exactly over the window; 14.4 spends 2 % of a 30-day budget in an hour). Null without events.
 */
export function burnRateOf(counts: GoodTotal, target: number): number | null {
  if (counts.total <= 0) return null;
  return (counts.total - counts.good) / counts.total / (1 - target / 100);
}

/** The SLI in percent (good of all), null without events. */
export function sliOf(counts: GoodTotal): number | null {
  return counts.total > 0 ? (100 * counts.good) / counts.total : null;
}

/** The share of the window's error budget left: 1 untouched (or no events yet), 0 spent, below 0 overspent. */
export function budgetRemainingOf(counts: GoodTotal, target: number): number {
  const rate = burnRateOf(counts, target);
  return rate === null ? 1 : 1 - rate;
}

/** The burn-rate alerts that fire for these rates: both windows over the alert's rate. */
export function firingBurnAlerts(rates: Partial<Record<BurnRateWindow, number | null>>): (typeof BURN_RATE_ALERTS)[number][] {
  return BURN_RATE_ALERTS.filter((alert) => (rates[alert.long] ?? 0) > alert.burnRate && (rates[alert.short] ?? 0) > alert.burnRate);
}

/** An objective's status: its budget spent, else the worst burn-rate alert firing. */
export function sloStatusOf(errorBudgetRemaining: number, rates: Partial<Record<BurnRateWindow, number | null>>): SloStatus {
  if (errorBudgetRemaining <= 0) return 'exhausted';
  const firing = firingBurnAlerts(rates);
  if (firing.some((alert) => alert.severity === 'page')) return 'breaching';
  return firing.length > 0 ? 'warning' : 'ok';
}

/** What GET /api/slos and /api/slos/{id} answer for each objective. */
export interface SloView {
  id: number;
  name: string;
  description: string | null;
  target: number;
  window: SloWindow;
  indicator: SloIndicator;
  /** the service the indicator's breakers belong to, when it names one (for the list's filter) */
  service: string | null;
  /** good of all over the window in percent; null without events */
  sli: number | null;
  errorBudgetRemaining: number;
  burnRates: Record<BurnRateWindow, number | null>;
  status: SloStatus;
  /** the window's good and all events */
  good: number;
  total: number;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/slos/{id}: the view, the budget left at the end of each day of the window (the burn-down; the last point is now), and who spent it. */
export interface SloDetailView extends SloView {
  burnDown: { at: string; errorBudgetRemaining: number }[];
  /** breakers, instances or domains by the bad events they contributed over the window, most first (at most 10) */
  topContributors: { kind: 'breaker' | 'instance' | 'domain' | 'version'; id: string; name: string; bad: number; total: number }[];
}
