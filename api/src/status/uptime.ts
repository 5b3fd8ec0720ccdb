import {
  COMPONENT_STATES,
  isDownState,
  STATUS_PAGE_LIMITS,
  type ComponentState,
  type IncidentImpact,
  type PublicDay,
} from '@cbh/contracts';

const DAY_MS = 86_400_000;

/** An incident as a day's bar lists it: its span and the components it named. */
export interface DayIncident {
  id: number;
  title: string;
  impact: IncidentImpact;
  componentIds: readonly number[];
  createdAt: Date;
  resolvedAt: Date | null;
}

const worse = (a: ComponentState, b: ComponentState) => (COMPONENT_STATES.indexOf(b) > COMPONENT_STATES.indexOf(a) ? b : a);

/** Midnight UTC of a moment's day. */
export const startOfDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

/** The first moment the bars cover: midnight UTC, `days - 1` days before today's. */
export const barsStart = (now: Date, days: number = STATUS_PAGE_LIMITS.days) => new Date(startOfDay(now).getTime() - (days - 1) * DAY_MS);

/**
 * A component's daily bars, oldest first, from its state changes (the last one before the first day included, so the
 * state each day starts in is known): each day the share of its observed time the component was up (a partial or a
 * major outage counts as down; degraded and maintenance as up), the worst state it was in, and the incidents that
 * named it and were open that day. Days before the component existed, and the part of today still to come, are not
 * observed: a day with no observed time has a null uptime.
 */
export function dailyBars(input: {
  createdAt: Date;
  changes: readonly { state: ComponentState; at: Date }[];
  incidents: readonly DayIncident[];
  componentId: number;
  now: Date;
  days?: number;
}): PublicDay[] {
  const days = input.days ?? STATUS_PAGE_LIMITS.days;
  const first = barsStart(input.now, days).getTime();
  const now = input.now.getTime();
  const created = input.createdAt.getTime();
  const changes = [...input.changes].sort((a, b) => a.at.getTime() - b.at.getTime());
  const bars: PublicDay[] = [];
  let next = 0;
  let state: ComponentState = 'operational';
  // the state at the bars' start: the last change before it
  while (next < changes.length && changes[next]!.at.getTime() <= first) state = changes[next++]!.state;
  for (let day = 0; day < days; day++) {
    const dayStart = first + day * DAY_MS;
    const dayEnd = dayStart + DAY_MS;
    const from = Math.max(dayStart, created);
    const to = Math.min(dayEnd, now);
    let worst: ComponentState = state;
    let down = 0;
    let cursor = from;
    while (next < changes.length && changes[next]!.at.getTime() < dayEnd) {
      const change = changes[next++]!;
      const at = Math.min(Math.max(change.at.getTime(), from), Math.max(to, from));
      if (isDownState(state)) down += Math.max(0, at - cursor);
      cursor = Math.max(cursor, at);
      state = change.state;
      if (change.at.getTime() >= from) worst = worse(worst, state);
    }
    if (isDownState(state)) down += Math.max(0, to - cursor);
    const observed = Math.max(0, to - from);
    bars.push({
      date: new Date(dayStart).toISOString().slice(0, 10),
      uptime: observed > 0 ? Math.round((1 - down / observed) * 10_000) / 10_000 : null,
      worst: observed > 0 ? worst : 'operational',
      incidents: input.incidents
        .filter(
          (incident) =>
            incident.componentIds.includes(input.componentId) &&
            incident.createdAt.getTime() < dayEnd &&
            (incident.resolvedAt === null || incident.resolvedAt.getTime() >= dayStart),
        )
        .map(({ id, title, impact }) => ({ id, title, impact })),
    });
  }
  return bars;
}

/** The share of the last `days` days' observed time up, from the bars (weighted by each day's observed share). */
export function uptimeOver(bars: readonly PublicDay[], days: number): number | null {
  const observed = bars.slice(-days).filter((bar) => bar.uptime !== null);
  if (observed.length === 0) return null;
  return Math.round((observed.reduce((sum, bar) => sum + bar.uptime!, 0) / observed.length) * 10_000) / 10_000;
}
