import type { NotificationSubjectKind } from '@cbh/contracts';

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

/** Whether a window covers a subject: one that names neither breakers nor domains covers everything. */
export function windowCovers(window: WindowScope, kind: NotificationSubjectKind, name: string): boolean {
  if (window.breakers.length === 0 && window.domains.length === 0) return true;
  const names = kind === 'breaker' ? window.breakers : window.domains;
  const wanted = name.toLowerCase();
  return names.some((listed) => listed.toLowerCase() === wanted);
}

/** The first window that mutes a subject at a moment, if any. */
export function mutingWindow<W extends WindowScope & { name: string }>(
  windows: readonly W[],
  kind: NotificationSubjectKind,
  name: string,
  at: Date,
): W | undefined {
  return windows.find((window) => isWindowActive(window, at) && windowCovers(window, kind, name));
}
