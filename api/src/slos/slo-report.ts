import { createHash } from 'node:crypto';
import { budgetRemainingOf, sliOf, SLO_INDICATOR_LABELS, type GoodTotal } from '@cbh/contracts';
import { escapeHtml } from '../platform';
import type { SloEntity } from './entities/slo.entity';

/** One month of an SLO, day by day (UTC), as the monthly report shows it. */
export interface SloMonth {
  month: string;
  days: ({ day: string } & GoodTotal)[];
}

/** The month's days from the days counted; days without events are listed too, so the report has every day of the month. */
export function monthOf(month: string, counted: { day: Date; good: number; total: number }[]): SloMonth {
  const [year, monthIndex] = month.split('-').map(Number) as [number, number];
  const dayCount = new Date(Date.UTC(year, monthIndex, 0)).getUTCDate();
  const days = Array.from({ length: dayCount }, (_, i) => ({ day: `${month}-${String(i + 1).padStart(2, '0')}`, good: 0, total: 0 }));
  for (const entry of counted) {
    const day = days[entry.day.getUTCDate() - 1]!;
    day.good += entry.good;
    day.total += entry.total;
  }
  return { month, days };
}

/** The month's first instant and the next month's, in UTC. */
export function monthSpan(month: string): { from: Date; to: Date } {
  const [year, monthIndex] = month.split('-').map(Number) as [number, number];
  return { from: new Date(Date.UTC(year, monthIndex - 1, 1)), to: new Date(Date.UTC(year, monthIndex, 1)) };
}

const percent = (value: number | null, digits = 3) => (value === null ? '' : value.toFixed(digits));
const totalOf = (days: GoodTotal[]) =>
  days.reduce((sum, day) => ({ good: sum.good + day.good, total: sum.total + day.total }), { good: 0, total: 0 });

/** The report as CSV: a row per day (date, good, total, SLI in percent, bad), then the month's. */
export function reportCsv(slo: SloEntity, month: SloMonth): string {
  const quote = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
  const rows = month.days.map((day) => [day.day, day.good, day.total, percent(sliOf(day)), day.total - day.good].join(','));
  const all = totalOf(month.days);
  return [
    `# ${quote(slo.name)}, target ${slo.target} %, ${month.month}`,
    'date,good,total,sli_percent,bad',
    ...rows,
    ['month', all.good, all.total, percent(sliOf(all)), all.total - all.good].join(','),
    '',
  ].join('\n');
}

const STYLE =
  'body{font:14px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#1d2939}table{border-collapse:collapse;width:100%}th,td{padding:.25rem .5rem;border-bottom:1px solid #d0d5dd;text-align:right}th:first-child,td:first-child{text-align:left}.miss{color:#b42318;font-weight:600}@media print{body{margin:0}}';

/** The report page's policy: no script, its one style sheet by hash, never framed. */
export const REPORT_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

/** The report as a printable page: the month's SLI against the target, the budget it left, and each day. */
export function reportHtml(slo: SloEntity, month: SloMonth): string {
  const all = totalOf(month.days);
  const sli = sliOf(all);
  const met = sli === null || sli >= slo.target;
  const rows = month.days
    .map((day) => {
      const daySli = sliOf(day);
      const miss = daySli !== null && daySli < slo.target ? ' class="miss"' : '';
      return `<tr><td>${day.day}</td><td>${day.good.toLocaleString('en')}</td><td>${day.total.toLocaleString('en')}</td><td${miss}>${daySli === null ? '—' : `${percent(daySli)} %`}</td></tr>`;
    })
    .join('');
  const title = `${slo.name} — ${month.month}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(SLO_INDICATOR_LABELS[slo.kind])}${slo.service ? ` of ${escapeHtml(slo.service)}` : ''}; target ${slo.target} % over ${slo.window}.</p>
<p><strong${met ? '' : ' class="miss"'}>SLI ${sli === null ? 'not measured (no events)' : `${percent(sli)} % — ${met ? 'met' : 'missed'}`}</strong>;
error budget left at the month's end: ${(budgetRemainingOf(all, slo.target) * 100).toFixed(1)} %; ${all.total.toLocaleString('en')} events, ${(all.total - all.good).toLocaleString('en')} bad.</p>
<table><thead><tr><th>Day (UTC)</th><th>Good</th><th>All</th><th>SLI</th></tr></thead><tbody>${rows}</tbody></table>
</main></body></html>`;
}
