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
const quote = (text: string) => (/[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
const totalOf = (days: GoodTotal[]) =>
  days.reduce((sum, day) => ({ good: sum.good + day.good, total: sum.total + day.total }), { good: 0, total: 0 });

/** Whether the month's SLI reached the target; a month without events is neither. */
export type MonthVerdict = 'met' | 'missed' | 'no-events';

/** An SLO's month in one line: its events, SLI, the budget they left of the month's allowance, and the verdict. */
export function monthSummary(
  slo: SloEntity,
  month: SloMonth,
): GoodTotal & { sli: number | null; budgetRemaining: number; verdict: MonthVerdict } {
  const all = totalOf(month.days);
  const sli = sliOf(all);
  return {
    ...all,
    sli,
    budgetRemaining: budgetRemainingOf(all, slo.target),
    verdict: sli === null ? 'no-events' : sli >= slo.target ? 'met' : 'missed',
  };
}

/** The report as CSV: a row per day (date, good, total, SLI in percent, bad), then the month's. */
export function reportCsv(slo: SloEntity, month: SloMonth): string {
  const rows = month.days.map((day) => [day.day, day.good, day.total, percent(sliOf(day)), day.total - day.good].join(','));
  const all = monthSummary(slo, month);
  return [
    `# ${quote(slo.name)}, target ${slo.target} %, ${month.month}`,
    'date,good,total,sli_percent,bad',
    ...rows,
    ['month', all.good, all.total, percent(all.sli), all.total - all.good].join(','),
    '',
  ].join('\n');
}

/** A service's report as CSV: a row per SLO, its month's SLI, the budget left at the month's end (percent), events and verdict. */
export function serviceReportCsv(service: string, monthName: string, slos: { slo: SloEntity; month: SloMonth }[]): string {
  const rows = slos.map(({ slo, month }) => {
    const all = monthSummary(slo, month);
    return [
      quote(slo.name),
      slo.target,
      slo.window,
      percent(all.sli),
      percent(all.budgetRemaining * 100, 1),
      all.good,
      all.total,
      all.verdict,
    ].join(',');
  });
  return [
    `# service ${service}, ${monthName}, ${slos.length} SLO${slos.length === 1 ? '' : 's'}`,
    'slo,target_percent,window,sli_percent,budget_remaining_percent,good,total,status',
    ...rows,
    '',
  ].join('\n');
}

const STYLE =
  'body{font:14px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#1d2939}table{border-collapse:collapse;width:100%}th,td{padding:.25rem .5rem;border-bottom:1px solid #d0d5dd;text-align:right}th:first-child,td:first-child{text-align:left}.miss{color:#b42318;font-weight:600}@media print{body{margin:0}}';

/** The report page's policy: no script, its one style sheet by hash, never framed. */
export const REPORT_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;

/** A printable page of the report's title and body. */
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;

const count = (value: number) => value.toLocaleString('en');
const VERDICT_WORDS: Record<MonthVerdict, string> = { met: 'met', missed: 'missed', 'no-events': 'no events' };

/** The report as a printable page: the month's SLI against the target, the budget it left, and each day. */
export function reportHtml(slo: SloEntity, month: SloMonth): string {
  const all = monthSummary(slo, month);
  const met = all.verdict !== 'missed';
  const rows = month.days
    .map((day) => {
      const daySli = sliOf(day);
      const miss = daySli !== null && daySli < slo.target ? ' class="miss"' : '';
      return `<tr><td>${day.day}</td><td>${count(day.good)}</td><td>${count(day.total)}</td><td${miss}>${daySli === null ? '—' : `${percent(daySli)} %`}</td></tr>`;
    })
    .join('');
  return page(
    `${slo.name} — ${month.month}`,
    `<p>${escapeHtml(SLO_INDICATOR_LABELS[slo.kind])}${slo.service ? ` of ${escapeHtml(slo.service)}` : ''}; target ${slo.target} % over ${slo.window}.</p>
<p><strong${met ? '' : ' class="miss"'}>SLI ${all.sli === null ? 'not measured (no events)' : `${percent(all.sli)} % — ${all.verdict}`}</strong>;
error budget left at the month's end: ${(all.budgetRemaining * 100).toFixed(1)} %; ${count(all.total)} events, ${count(all.total - all.good)} bad.</p>
<table><thead><tr><th>Day (UTC)</th><th>Good</th><th>All</th><th>SLI</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

/** A service's report as a printable page: a row per SLO, those that missed their target in red, each linking to its own report. */
export function serviceReportHtml(service: string, monthName: string, slos: { slo: SloEntity; month: SloMonth }[]): string {
  const missed = slos.filter(({ slo, month }) => monthSummary(slo, month).verdict === 'missed').length;
  const rows = slos
    .map(({ slo, month }) => {
      const all = monthSummary(slo, month);
      const miss = all.verdict === 'missed' ? ' class="miss"' : '';
      return `<tr><td><a href="/api/slos/${slo.id}/report?month=${month.month}">${escapeHtml(slo.name)}</a></td><td>${escapeHtml(SLO_INDICATOR_LABELS[slo.kind])}</td><td>${slo.target} %</td><td>${slo.window}</td><td${miss}>${all.sli === null ? '—' : `${percent(all.sli)} %`}</td><td${miss}>${(all.budgetRemaining * 100).toFixed(1)} %</td><td>${count(all.good)}</td><td>${count(all.total)}</td><td${miss}>${VERDICT_WORDS[all.verdict]}</td></tr>`;
    })
    .join('');
  return page(
    `${service} — ${monthName}`,
    `<p>${slos.length} SLO${slos.length === 1 ? '' : 's'} of the service ${escapeHtml(service)}: ${slos.length - missed} met or without events, <strong${missed ? ' class="miss"' : ''}>${missed} missed</strong>. The error budget left is of the month's allowance, at the month's end.</p>
<table><thead><tr><th>SLO</th><th>Indicator</th><th>Target</th><th>Window</th><th>SLI</th><th>Budget left</th><th>Good</th><th>All</th><th>Month</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}
