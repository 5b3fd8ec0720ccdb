import { namesBreaker, type OutboxEvent } from './rule-matching';

const WEEK_MS = 7 * 24 * 3600_000;

interface WindowTimes {
  startsAt: Date;
  endsAt: Date;
  repeatWeekly: boolean;
}

interface WindowScope extends WindowTimes {
  breakers: readonly string[];
  domains: readonly string[];
}

/** Whether a window mutes at a moment: between its start and end, or that span of any later week when it repeats. */
export function isWindowActive(window: WindowTimes, at: Date): boolean {
  const since = at.getTime() - window.startsAt.getTime();
  if (since < 0) return false;
  const length = window.endsAt.getTime() - window.startsAt.getTime();
  return window.repeatWeekly ? since % WEEK_MS < length : since < length;
}

/**
 * Whether a window covers an event's subject: one that names neither breakers nor domains covers everything. Its
 * breakers are named as a rule's are (a plain name is the hub's own breaker, `agent:<service>/<name>` an agent's), so
 * a window for the hub's breaker does not mute another service's breaker of the same name.
 */
export function windowCovers(window: Pick<WindowScope, 'breakers' | 'domains'>, event: OutboxEvent): boolean {
  if (window.breakers.length === 0 && window.domains.length === 0) return true;
  if (event.subjectKind === 'breaker') return namesBreaker(window.breakers, event);
  const wanted = event.subjectName.toLowerCase();
  return window.domains.some((listed) => listed.toLowerCase() === wanted);
}

/** The first window that mutes a subject at a moment, if any. */
export function mutingWindow<W extends WindowScope & { name: string }>(windows: readonly W[], event: OutboxEvent): W | undefined {
  return windows.find((window) => isWindowActive(window, event.occurredAt) && windowCovers(window, event));
}

/** What a status page's component includes, as a window names it: a breaker by its reference, or a domain by name. */
export type CoveredSubject =
  { kind: 'breaker'; name: string; source: 'hub' | 'agent' | 'scrape'; service: string | null } | { kind: 'domain'; name: string };

/** Whether a window covers a breaker or a domain (the same rule as for an event about it). */
export function windowCoversSubject(window: Pick<WindowScope, 'breakers' | 'domains'>, subject: CoveredSubject): boolean {
  const event: OutboxEvent = {
    id: '0',
    type: subject.kind === 'breaker' ? 'breaker.opened' : 'domain.alert.opened',
    subjectKind: subject.kind,
    subjectId: 0,
    subjectName: subject.name,
    occurredAt: new Date(0),
    receivedAt: new Date(0),
    data: subject.kind === 'breaker' ? { breaker: { source: subject.source, service: subject.service } } : {},
    ruleId: null,
  };
  return windowCovers(window, event);
}

/** The next time a window is active from a moment on: now when it is, its next start otherwise, or null when past. */
export function nextActiveSpan(window: WindowTimes, at: Date): { startsAt: Date; endsAt: Date } | null {
  const length = window.endsAt.getTime() - window.startsAt.getTime();
  if (!window.repeatWeekly) return window.endsAt > at ? { startsAt: window.startsAt, endsAt: window.endsAt } : null;
  const since = at.getTime() - window.startsAt.getTime();
  const weeks = since <= 0 ? 0 : Math.floor(since / WEEK_MS) + (since % WEEK_MS < length ? 0 : 1);
  const start = window.startsAt.getTime() + weeks * WEEK_MS;
  return { startsAt: new Date(start), endsAt: new Date(start + length) };
}
