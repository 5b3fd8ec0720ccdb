import type {
  ComponentState,
  IncidentImpact,
  PublicComponent,
  PublicDay,
  PublicIncident,
  PublicIncidentHistory,
  PublicStatusSummary,
} from '@cbh/contracts';

/** Inputs for the public page, feed and badge specs: a page as a busy operator would publish it. */

const DAY = 86_400_000;
export const NOW = '2026-11-28T14:05:09.000Z';
const today = Date.parse('2026-11-28T00:00:00.000Z');

/** A small deterministic generator (the same fixture every run). */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const isoDate = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * 90 days, oldest first: mostly whole days up, some with downtime and an incident, some degraded; `young` components
 * have no data for their first days. `everyDayDifferent` gives each day its own uptime (the worst case for the size).
 */
export function daysFixture(seed: number, options: { young?: number; everyDayDifferent?: boolean } = {}): PublicDay[] {
  const next = random(seed);
  return Array.from({ length: 90 }, (_, index) => {
    const date = isoDate(today - (89 - index) * DAY);
    if (index < (options.young ?? 0)) return { date, uptime: null, worst: 'operational', incidents: [] };
    const roll = next();
    if (options.everyDayDifferent) {
      return {
        date,
        uptime: 0.9 + next() * 0.0999,
        worst: 'partial_outage',
        incidents: [{ id: 1000 + index, title: `Slow checkout #${index}`, impact: 'minor' }],
      };
    }
    if (roll < 0.03) {
      return {
        date,
        uptime: 0.95 + next() * 0.0499,
        worst: roll < 0.01 ? 'major_outage' : 'partial_outage',
        incidents: [{ id: 500 + index, title: 'Payments slow for some card types', impact: roll < 0.01 ? 'major' : 'minor' }],
      };
    }
    if (roll < 0.06) return { date, uptime: 1, worst: 'degraded', incidents: [] };
    return { date, uptime: 1, worst: 'operational', incidents: [] };
  });
}

const STATES: ComponentState[] = ['operational', 'operational', 'degraded', 'partial_outage', 'maintenance', 'major_outage'];

export function componentFixture(index: number, options: { everyDayDifferent?: boolean } = {}): PublicComponent {
  return {
    id: index + 1,
    name: `Component ${index + 1} — ${['Checkout API', 'Card payments', 'Webhooks', 'Dashboard', 'Search'][index % 5]}`,
    description: index % 3 === 0 ? 'Takes card and wallet payments for every storefront in the EU and the US.' : null,
    group: index < 4 ? null : ['Payments', 'Platform', 'Edge'][index % 3]!,
    state: STATES[index % STATES.length]!,
    days: daysFixture(index + 7, { young: index % 7 === 6 ? 30 : 0, everyDayDifferent: options.everyDayDifferent }),
    uptime30d: index % 7 === 6 ? null : 0.99951 - index * 0.0003,
  };
}

const MESSAGE_HTML =
  '<p>We are seeing <strong>elevated error rates</strong> on card payments in the EU. Retries succeed; see the ' +
  '<a href="https://example.com/runbook" rel="nofollow noopener noreferrer">runbook</a>.</p>' +
  '<ul><li>Cards: affected</li><li>Wallets: fine</li></ul>';

export function incidentFixture(
  id: number,
  options: { updates?: number; resolved?: boolean; impact?: IncidentImpact } = {},
): PublicIncident {
  const start = Date.parse(NOW) - id * 3_600_000;
  const statuses = ['investigating', 'identified', 'monitoring', 'monitoring', 'resolved'] as const;
  const count = options.updates ?? 5;
  const updates = Array.from({ length: count }, (_, at) => ({
    id: id * 100 + at,
    status: options.resolved && at === count - 1 ? ('resolved' as const) : statuses[Math.min(at, 3)]!,
    message: 'markdown',
    messageHtml: MESSAGE_HTML,
    createdAt: new Date(start + at * 600_000).toISOString(),
  }));
  return {
    id,
    title: `Card payments failing for some customers (${id})`,
    impact: options.impact ?? (['minor', 'major', 'critical', 'none'] as const)[id % 4]!,
    status: updates[updates.length - 1]?.status ?? 'investigating',
    components: [
      { id: 2, name: 'Card payments', state: 'partial_outage' },
      { id: 1, name: 'Checkout API', state: 'degraded' },
    ],
    createdAt: new Date(start).toISOString(),
    resolvedAt: options.resolved ? updates[updates.length - 1]!.createdAt : null,
    updates,
  };
}

/** The page of the size budget: 20 components × 90 days, 3 open incidents with 5 updates each, a page of history. */
export function summaryFixture(
  options: { components?: number; openIncidents?: number; everyDayDifferent?: boolean } = {},
): PublicStatusSummary {
  return {
    page: {
      slug: 'payments',
      title: 'Acme Payments',
      description: 'The live status of the Acme payment platform.',
      accentColor: '#0b6bcb',
      url: 'https://status.example.com/status/payments',
    },
    state: 'partial_outage',
    updatedAt: NOW,
    components: Array.from({ length: options.components ?? 20 }, (_, index) => componentFixture(index, options)),
    incidents: Array.from({ length: options.openIncidents ?? 3 }, (_, index) => incidentFixture(index + 1)),
    maintenance: [
      {
        name: 'Database upgrade',
        startsAt: '2026-11-28T13:00:00.000Z',
        endsAt: '2026-11-28T15:00:00.000Z',
        active: true,
        components: ['Webhooks'],
      },
      {
        name: 'Card network failover test',
        startsAt: '2026-12-03T22:00:00.000Z',
        endsAt: '2026-12-04T01:00:00.000Z',
        active: false,
        components: [],
      },
    ],
  };
}

export function historyFixture(options: { page?: number; pages?: number; incidents?: number } = {}): PublicIncidentHistory {
  return {
    incidents: Array.from({ length: options.incidents ?? 3 }, (_, index) => incidentFixture(40 + index, { updates: 2, resolved: true })),
    page: options.page ?? 2,
    pages: options.pages ?? 4,
  };
}
