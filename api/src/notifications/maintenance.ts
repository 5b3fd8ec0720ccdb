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
export function windowCovers(window: WindowScope, event: OutboxEvent): boolean {
  if (window.breakers.length === 0 && window.domains.length === 0) return true;
  if (event.subjectKind === 'breaker') return namesBreaker(window.breakers, event);
  const wanted = event.subjectName.toLowerCase();
  return window.domains.some((listed) => listed.toLowerCase() === wanted);
}

/** The first window that mutes a subject at a moment, if any. */
export function mutingWindow<W extends WindowScope & { name: string }>(windows: readonly W[], event: OutboxEvent): W | undefined {
  return windows.find((window) => isWindowActive(window, event.occurredAt) && windowCovers(window, event));
}
