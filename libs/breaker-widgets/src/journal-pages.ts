import type { JournalEntry, JournalPage } from '@cbh/contracts';

/**
 * The journal rows a screen holds, gathered from pages the API serves newest first: the newest page (refetched
 * whenever the breaker moves) and the older pages asked for one at a time.
 */
export interface HeldJournal {
  /** Newest first, by row id (the journal's order). */
  rows: JournalEntry[];
  /** Where the next older page starts; null once the oldest row is held. */
  nextBefore: number | null;
  /** The older page asked for, if any. */
  before: number | undefined;
}

export type JournalPagesAction =
  { type: 'newest'; page: JournalPage } | { type: 'older'; before: number; page: JournalPage } | { type: 'loadOlder' };

export const EMPTY_JOURNAL: HeldJournal = { rows: [], nextBefore: null, before: undefined };

/** The rows of both, newest first; the held array itself when the page brings nothing new (a refetch of known rows). */
function union(held: JournalEntry[], page: readonly JournalEntry[]): JournalEntry[] {
  const byId = new Map(held.map((row) => [row.id, row]));
  if (page.every((row) => byId.has(row.id))) return held;
  for (const row of page) byId.set(row.id, row);
  return [...byId.values()].sort((a, b) => b.id - a.id);
}

export function journalPagesReducer(state: HeldJournal, action: JournalPagesAction): HeldJournal {
  switch (action.type) {
    case 'newest': {
      const { page } = action;
      const oldestOfPage = page.transitions.at(-1)?.id;
      const newestHeld = state.rows[0]?.id;
      // More moves than a page holds since the last look (a long disconnection): rows between the two are not
      // held, and a replay across the hole would be wrong, so start again from the newest page.
      const hole = page.nextBefore !== null && oldestOfPage !== undefined && newestHeld !== undefined && oldestOfPage > newestHeld;
      if (state.rows.length === 0 || hole) return { rows: page.transitions, nextBefore: page.nextBefore, before: undefined };
      const rows = union(state.rows, page.transitions);
      return rows === state.rows ? state : { ...state, rows };
    }
    case 'older':
      // an answer for a page no longer asked for (the journal started again) is dropped
      if (action.before !== state.before) return state;
      return { ...state, rows: union(state.rows, action.page.transitions), nextBefore: action.page.nextBefore };
    case 'loadOlder':
      return state.nextBefore === null ? state : { ...state, before: state.nextBefore };
  }
}
