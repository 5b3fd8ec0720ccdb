import {
  COMPONENT_STATE_LABELS,
  INCIDENT_STATUS_LABELS,
  type PublicIncident,
  type PublicMaintenance,
  type PublicStatusSummary,
} from '@cbh/contracts';
import { escapeText as esc, readableTime } from './page-styles';
import { IMPACT_LABELS } from './render-page';

/*
 * A status page's Atom feed (RFC 4287), written by hand with every text escaped (the `feed` package is an ES module
 * only, which the API's jest and CommonJS bundle do not load): one entry per incident, open or resolved, and one per
 * maintenance window. Entry ids are stable (`{page url}#incident-{id}`), so readers see an incident's updates as
 * changes to one entry. Deterministic: nothing is read from the clock.
 */

export interface AtomFeedInput {
  summary: PublicStatusSummary;
  /** newest first, open and resolved */
  incidents: PublicIncident[];
  /** the feed's own address */
  selfUrl: string;
  /** the page's address (the feed's id, and the entries' links) */
  pageUrl: string;
}

interface Entry {
  id: string;
  title: string;
  updated: string;
  published: string;
  link: string;
  category: string;
  /** HTML, escaped once more into the content element */
  html: string;
}

/** An RFC 3339 instant (UTC, as xsd:dateTime reads it), or the fallback when the value is no instant. */
const instant = (value: string, fallback: string) => readableTime(value)?.iso ?? fallback;
const readable = (value: string) => readableTime(value)?.text ?? value;
/** A name as an id's part: lower-case letters and digits, the rest hyphens ("Database upgrade" → database-upgrade). */
const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'window';

function incidentEntry(incident: PublicIncident, pageUrl: string, fallback: string): Entry {
  const last = incident.updates[incident.updates.length - 1];
  const published = instant(incident.createdAt, fallback);
  let html = `<p><strong>${esc(IMPACT_LABELS[incident.impact])}</strong> · ${esc(INCIDENT_STATUS_LABELS[incident.status])}</p>`;
  if (incident.components.length > 0) {
    const affected = incident.components.map((component) => `${component.name} (${COMPONENT_STATE_LABELS[component.state]})`);
    html += `<p>Affects: ${esc(affected.join(', '))}</p>`;
  }
  for (let at = incident.updates.length - 1; at >= 0; at -= 1) {
    const update = incident.updates[at]!;
    html += `<p><strong>${esc(INCIDENT_STATUS_LABELS[update.status])}</strong> · ${esc(readable(update.createdAt))}</p>${update.messageHtml}`;
  }
  const updated = [last?.createdAt, incident.resolvedAt]
    .filter((value): value is string => Boolean(value))
    .map((value) => instant(value, published))
    .reduce((latest, value) => (value > latest ? value : latest), published);
  return {
    id: `${pageUrl}#incident-${incident.id}`,
    title: `[${IMPACT_LABELS[incident.impact]}] ${incident.title} — ${INCIDENT_STATUS_LABELS[incident.status]}`,
    updated,
    published,
    link: `${pageUrl}#incident-${incident.id}`,
    category: `incident-${incident.impact}`,
    html,
  };
}

function maintenanceEntry(window: PublicMaintenance, pageUrl: string, fallback: string): Entry {
  const startsAt = instant(window.startsAt, fallback);
  const endsAt = instant(window.endsAt, startsAt);
  let html = `<p><strong>${window.active ? 'In progress' : 'Scheduled'}</strong>: ${esc(readable(startsAt))} – ${esc(readable(endsAt))}</p>`;
  if (window.components.length > 0) html += `<p>Affects: ${esc(window.components.join(', '))}</p>`;
  return {
    // a window has no id of its own in the public summary: its name and start make one that holds while it lasts
    id: `${pageUrl}#maintenance-${slugOf(window.name)}-${startsAt}`,
    title: `[Maintenance] ${window.name} — ${window.active ? 'in progress' : `scheduled ${readable(startsAt)}`}`,
    updated: startsAt,
    published: startsAt,
    link: `${pageUrl}#maintenance`,
    category: 'maintenance',
    html,
  };
}

const entryXml = (entry: Entry) =>
  `<entry><id>${esc(entry.id)}</id><title type="text">${esc(entry.title)}</title>` +
  `<updated>${entry.updated}</updated><published>${entry.published}</published>` +
  `<link rel="alternate" type="text/html" href="${esc(entry.link)}"/>` +
  `<category term="${esc(entry.category)}"/>` +
  `<content type="html">${esc(entry.html)}</content></entry>\n`;

/** The feed as an Atom document. */
export function renderAtomFeed(input: AtomFeedInput): string {
  const { summary, pageUrl } = input;
  const now = instant(summary.updatedAt, '1970-01-01T00:00:00.000Z');
  const entries = [
    ...summary.maintenance.map((window) => maintenanceEntry(window, pageUrl, now)),
    ...input.incidents.map((incident) => incidentEntry(incident, pageUrl, now)),
  ];
  // the feed changed when its newest entry did (a window announced for later counts from the summary's time)
  const updated = entries.reduce<string | null>(
    (latest, entry) => (entry.updated <= now && (latest === null || entry.updated > latest) ? entry.updated : latest),
    null,
  );
  const page = summary.page;
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">\n' +
    `<id>${esc(pageUrl)}</id><title type="text">${esc(page.title)} status</title>` +
    (page.description ? `<subtitle type="text">${esc(page.description)}</subtitle>` : '') +
    `<updated>${updated ?? now}</updated>` +
    `<link rel="self" type="application/atom+xml" href="${esc(input.selfUrl)}"/>` +
    `<link rel="alternate" type="text/html" href="${esc(pageUrl)}"/>` +
    `<author><name>${esc(page.title)}</name><uri>${esc(pageUrl)}</uri></author>` +
    '<generator>Circuit Breaker Hub</generator>\n' +
    entries.map(entryXml).join('') +
    '</feed>\n'
  );
}
