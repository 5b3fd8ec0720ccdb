import {
  COMPONENT_STATE_LABELS,
  INCIDENT_STATUS_LABELS,
  type IncidentImpact,
  type PublicComponent,
  type PublicDay,
  type PublicIncident,
  type PublicIncidentHistory,
  type PublicMaintenance,
  type PublicStatusSummary,
} from '@cbh/contracts';
import { escapeText as esc, formatUptime, pageCss, stateIndex, timeElement } from './page-styles';

/*
 * The public status page, server-rendered as one HTML document: no script at all (it works with JavaScript off), one
 * small inline style sheet, every interpolated text escaped, and nothing read from the clock (the same input renders
 * the same bytes, so its ETag holds). Update messages are inserted as they come: `messageHtml` is sanitised upstream
 * by renderMarkdown.
 */

export interface StatusPageInput {
  summary: PublicStatusSummary;
  history: PublicIncidentHistory;
  /** set when the live status is unavailable and the page shows the last one computed */
  stale?: { since: string } | null;
  /** the subscribe form's target; no form when null */
  subscribe?: { action: string; notice?: string } | null;
  /** the page's own path, e.g. /status/payments (no trailing slash) */
  basePath: string;
}

/** How each impact reads on the page and in the feed. */
export const IMPACT_LABELS: Record<IncidentImpact, string> = {
  none: 'No impact',
  minor: 'Minor impact',
  major: 'Major impact',
  critical: 'Critical impact',
};

/** The page's Content-Security-Policy, as a meta element too: no script may run, whatever a text holds. */
const META_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'";

const stateLabel = (state: PublicComponent['state']) =>
  `<span class="st k${stateIndex(state)}">${esc(COMPONENT_STATE_LABELS[state])}</span>`;

/** The words a day (or a run of alike days) says: "2026-11-28: 99.31 % up, Partial outage — Incident: Payments slow". */
function dayText(first: PublicDay, last: PublicDay): string {
  const range = first === last ? first.date : `${first.date} – ${last.date}`;
  if (first.uptime === null) return `${range}: no data`;
  let text = `${range}: ${formatUptime(first.uptime, ' ')} up`;
  if (first.worst !== 'operational') text += `, ${COMPONENT_STATE_LABELS[first.worst]}`;
  if (first.incidents.length > 0) {
    const titles = first.incidents.map((incident) => incident.title).join('; ');
    text += ` — ${first.incidents.length > 1 ? 'Incidents' : 'Incident'}: ${titles}`;
  }
  return text;
}

/** Days alike when neither has an incident and both read the same. */
const sameDay = (a: PublicDay, b: PublicDay) =>
  a.incidents.length === 0 &&
  b.incidents.length === 0 &&
  a.worst === b.worst &&
  (a.uptime === null) === (b.uptime === null) &&
  (a.uptime === null || formatUptime(a.uptime) === formatUptime(b.uptime!));

interface Run {
  first: PublicDay;
  last: PublicDay;
  days: number;
}

function runsOf(days: PublicDay[]): Run[] {
  const runs: Run[] = [];
  for (const day of days) {
    const run = runs[runs.length - 1];
    if (run && sameDay(run.last, day)) {
      run.last = day;
      run.days += 1;
    } else runs.push({ first: day, last: day, days: 1 });
  }
  return runs;
}

/** The bars, and under them a line: "90 days ago · 99.95 % uptime (30 days) · Today" (its ends for the eye only). */
function barsHtml(component: PublicComponent, runs: Run[]): string {
  const uptime = component.uptime30d === null ? 'No data' : `${formatUptime(component.uptime30d, ' ')} uptime`;
  if (runs.length === 0) return `<p class=m>No history yet. ${uptime} (30 days)</p>`;
  let items = '';
  for (const run of runs) {
    // lean markup, the page's bulk (hundreds of these): unquoted tokens, no optional </li>
    const colour = run.first.uptime === null ? 'bn' : `b${stateIndex(run.first.worst)}`;
    const classes = run.days > 1 ? `"${colour} w${run.days}"` : colour;
    items += `<li tabindex=0 class=${classes}><span>${esc(dayText(run.first, run.last))}</span>`;
  }
  const total = runs.reduce((sum, run) => sum + run.days, 0);
  return (
    `<ol class=bars aria-label="Last ${total} days">${items}</ol>` +
    // the line's ends come from the style sheet for the usual 90 days (and are hidden from screen readers there)
    (total === 90
      ? `<p class="ax m"><span>${uptime} (30 days)</span></p>`
      : `<p class="ax m"><span aria-hidden=true>${total} days ago</span><span>${uptime} (30 days)</span><span aria-hidden=true>Today</span></p>`)
  );
}

function componentHtml(component: PublicComponent, runs: Run[], heading: 'h3' | 'h4'): string {
  return (
    `<li class=c><div class=ch><${heading}>${esc(component.name)}</${heading}>${stateLabel(component.state)}</div>` +
    (component.description ? `<p class=m>${esc(component.description)}</p>` : '') +
    barsHtml(component, runs) +
    '</li>'
  );
}

/** Components grouped by `group` (each group where its first component is), in input order. */
function componentsHtml(components: PublicComponent[], runs: Map<PublicComponent, Run[]>): string {
  if (components.length === 0) return '<p>This page lists no components yet.</p>';
  const blocks: { group: string | null; members: PublicComponent[] }[] = [];
  const groups = new Map<string, PublicComponent[]>();
  for (const component of components) {
    const members = component.group ? groups.get(component.group) : undefined;
    if (members) members.push(component);
    else {
      const block = { group: component.group, members: [component] };
      blocks.push(block);
      if (component.group) groups.set(component.group, block.members);
    }
  }
  let html = '';
  let loose = '';
  const flush = () => {
    if (loose) html += `<ul class=cs>${loose}</ul>`;
    loose = '';
  };
  for (const block of blocks) {
    if (!block.group) {
      loose += componentHtml(block.members[0]!, runs.get(block.members[0]!)!, 'h3');
      continue;
    }
    flush();
    const items = block.members.map((member) => componentHtml(member, runs.get(member)!, 'h4')).join('');
    html += `<section class=g><h3>${esc(block.group)}</h3><ul class=cs>${items}</ul></section>`;
  }
  flush();
  return html;
}

/** An incident's article; its anchor is `incident-{id}` (the feed links to it) unless the page already used it. */
function incidentHtml(incident: PublicIncident, anchors: Set<number>): string {
  const anchor = anchors.has(incident.id) ? '' : ` id="incident-${incident.id}"`;
  anchors.add(incident.id);
  const affected = incident.components
    .map((component) => `${esc(component.name)} (${esc(COMPONENT_STATE_LABELS[component.state])})`)
    .join(', ');
  let timeline = '';
  for (let at = incident.updates.length - 1; at >= 0; at -= 1) {
    const update = incident.updates[at]!;
    timeline += `<li><p><strong>${esc(INCIDENT_STATUS_LABELS[update.status])}</strong> · ${timeElement(update.createdAt)}</p>${update.messageHtml}</li>`;
  }
  return (
    `<article class=inc${anchor}><h3>${esc(incident.title)}</h3>` +
    `<p class=m>${esc(IMPACT_LABELS[incident.impact])} · ${esc(INCIDENT_STATUS_LABELS[incident.status])} · ` +
    `started ${timeElement(incident.createdAt)}</p>` +
    (affected ? `<p>Affects: ${affected}</p>` : '') +
    // the updates, newest first (the last one, "Resolved", says when it ended)
    (timeline ? `<ol class=tl reversed>${timeline}</ol>` : '') +
    '</article>'
  );
}

function maintenanceHtml(windows: PublicMaintenance[]): string {
  if (windows.length === 0) return '';
  const items = windows
    .map(
      (window) =>
        `<article class="inc"><h3>${esc(window.name)}</h3><p><span class="st k1">${window.active ? 'In progress' : 'Scheduled'}</span> ` +
        `${timeElement(window.startsAt)} – ${timeElement(window.endsAt)}</p>` +
        (window.components.length > 0 ? `<p>Affects: ${window.components.map(esc).join(', ')}</p>` : '') +
        '</article>',
    )
    .join('');
  return `<section aria-labelledby="maintenance"><h2 id="maintenance">Maintenance</h2>${items}</section>`;
}

function historyHtml(history: PublicIncidentHistory, basePath: string, anchors: Set<number>): string {
  const items = history.incidents.map((incident) => incidentHtml(incident, anchors)).join('');
  const link = (page: number, text: string, rel: string) => `<a href="${esc(basePath)}?history=${page}#history" rel="${rel}">${text}</a>`;
  const newer = history.page > 1 ? link(Math.min(history.page - 1, Math.max(history.pages, 1)), '← Newer', 'prev') : '<span></span>';
  const older = history.page < history.pages ? link(history.page + 1, 'Older →', 'next') : '<span></span>';
  const paging =
    history.pages > 1
      ? `<nav class="pg" aria-label="Incident history pages">${newer}<span class="m">Page ${history.page} of ${history.pages}</span>${older}</nav>`
      : '';
  return (
    '<section aria-labelledby="history"><h2 id="history">Incident history</h2>' +
    (items || '<p>No past incidents.</p>') +
    paging +
    '</section>'
  );
}

function subscribeHtml(subscribe: StatusPageInput['subscribe']): string {
  if (!subscribe) return '';
  return (
    '<section aria-labelledby="subscribe"><h2 id="subscribe">Get updates by e-mail</h2>' +
    (subscribe.notice ? `<p class="note" role="status">${esc(subscribe.notice)}</p>` : '') +
    `<form method="post" action="${esc(subscribe.action)}"><label for="subscribe-email">Your e-mail address</label>` +
    '<input id="subscribe-email" name="email" type="email" required autocomplete="email" maxlength="254">' +
    '<button type="submit">Subscribe</button></form></section>'
  );
}

/** The whole page as an HTML document. */
export function renderStatusPage(input: StatusPageInput): string {
  const { summary, history, stale, basePath } = input;
  const page = summary.page;
  const runs = new Map(summary.components.map((component) => [component, runsOf(component.days)]));
  const lengths = [...runs.values()].flatMap((list) => list.map((run) => run.days));
  const overall = summary.state === 'operational' ? 'All systems operational' : COMPONENT_STATE_LABELS[summary.state];
  const feed = `${basePath}/feed.atom`;
  const json = `/api/public/status/${encodeURIComponent(page.slug)}`;
  const anchors = new Set<number>();
  const openIncidents = summary.incidents.map((incident) => incidentHtml(incident, anchors)).join('');

  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<meta http-equiv="Content-Security-Policy" content="${META_CSP}">` +
    `<title>${esc(page.title)} status</title>` +
    (page.description ? `<meta name="description" content="${esc(page.description)}">` : '') +
    `<link rel="alternate" type="application/atom+xml" title="${esc(page.title)} incidents" href="${esc(feed)}">` +
    `<style>${pageCss(page.accentColor, lengths)}</style></head><body>` +
    `<header class="top"><div class="w"><h1>${esc(page.title)}</h1>` +
    (page.description ? `<p>${esc(page.description)}</p>` : '') +
    '</div></header><main class="w">' +
    (stale
      ? `<p class="note" role="note">Showing the status as of ${timeElement(stale.since)}: the live status is unavailable right now.</p>`
      : '') +
    `<p class="ban k${stateIndex(summary.state)}">${esc(overall)}</p>` +
    `<p class="m">Last updated ${timeElement(summary.updatedAt)}</p>` +
    (openIncidents ? `<section aria-labelledby="open"><h2 id="open">Open incidents</h2>${openIncidents}</section>` : '') +
    maintenanceHtml(summary.maintenance) +
    `<section aria-labelledby="components"><h2 id="components">Components</h2>${componentsHtml(summary.components, runs)}</section>` +
    historyHtml(history, basePath, anchors) +
    subscribeHtml(input.subscribe) +
    '</main><footer class="w m">' +
    `<p>Follow this page: <a href="${esc(feed)}">Atom feed</a> · <a href="${esc(json)}">JSON</a></p>` +
    '</footer></body></html>'
  );
}
