import {
  BURN_RATE_ALERTS,
  BURN_RATE_WINDOW_MINUTES,
  SLO_INDICATOR_LABELS,
  SLO_STATUSES,
  SLO_WINDOW_DAYS,
  type BurnRateWindow,
  type SloStatus,
  type SloWindow,
} from '@cbh/contracts';
import { plural, theme } from '@cbh/ui';

/*
 * How the SLO screens write an objective's figures: the API sends the SLI and the target in percent, the budget left
 * as a fraction (1 untouched, 0 spent, below 0 overspent) and each burn rate as a multiple of the even pace.
 */

/** Each status's colour: green while the budget lasts, amber for a ticket-level burn, orange for a page, red when spent. */
export const STATUS_COLORS: Record<SloStatus, string> = {
  ok: theme.colors.success,
  warning: theme.colors.yellow,
  breaching: theme.colors.orange,
  exhausted: theme.colors.destructive,
};

/** How bad a status is, for sorting: the order SLO_STATUSES lists them in, ok first. */
export const statusRank = (status: SloStatus) => SLO_STATUSES.indexOf(status);

/** At most three decimals, without trailing zeros: 99.9, 99.95, 100. */
const trimmed = (value: number, decimals: number) => String(Number(value.toFixed(decimals)));

/** An SLI or a target in percent ('99.95%'); an SLI under 100 never rounds up to a perfect 100%. */
export function percentText(value: number): string {
  const text = trimmed(value, 3);
  return value < 100 && text === '100' ? '99.999%' : `${text}%`;
}

export const NO_EVENTS = 'No events';

/** The SLI, or that nothing was counted yet (which spends no budget). */
export const sliText = (sli: number | null) => (sli === null ? NO_EVENTS : percentText(sli));

export const OVERSPENT = '(overspent)';

/** The budget left as a share of the window's ('62.5%', '-1,250%'); `said`, it is said to be overspent below nothing. */
export function budgetText(remaining: number, said = true): string {
  const text = `${(remaining * 100).toLocaleString('en', { maximumFractionDigits: 1 })}%`;
  return remaining < 0 && said ? `${text} ${OVERSPENT}` : text;
}

export const windowText = (window: SloWindow) => `${SLO_WINDOW_DAYS[window]} days`;

/** A burn rate as a multiple of the pace that spends the budget exactly over the window ('14.4×'). */
export const burnRateText = (rate: number | null) =>
  rate === null ? NO_EVENTS : `${rate.toLocaleString('en', { maximumFractionDigits: 2 })}×`;

/** A burn-rate window in words: '5 minutes', '1 hour', '3 days'. */
export function burnWindowText(window: BurnRateWindow): string {
  const minutes = BURN_RATE_WINDOW_MINUTES[window];
  return minutes < 60 ? plural(minutes, 'minute') : minutes < 1440 ? plural(minutes / 60, 'hour') : plural(minutes / 1440, 'day');
}

export const indicatorText = (kind: keyof typeof SLO_INDICATOR_LABELS) => SLO_INDICATOR_LABELS[kind];

/** The burn-rate alerts a window takes part in, as its long or its short window, with the rate each alerts over. */
export function alertsOf(window: BurnRateWindow): { severity: 'page' | 'ticket'; burnRate: number; long: boolean }[] {
  return BURN_RATE_ALERTS.filter((alert) => alert.long === window || alert.short === window).map((alert) => ({
    severity: alert.severity,
    burnRate: alert.burnRate,
    long: alert.long === window,
  }));
}

/** This month and the one before it as the report takes them (YYYY-MM), in UTC as the API counts its hours. */
export function reportMonths(now: Date): string[] {
  const month = (offset: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
  return [month(0), month(-1)];
}

/** A report's month in words ('May 2026'). */
export const monthText = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });
