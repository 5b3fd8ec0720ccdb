import type { JournalEntry, JournalPage } from '@cbh/contracts';
import { EMPTY_JOURNAL, journalPagesReducer, type HeldJournal, type JournalPagesAction } from './journal-pages';

const row = (id: number): JournalEntry => ({
  id,
  configId: 5,
  from: 'CLOSED',
  to: 'OPEN',
  reason: `row ${id}`,
  at: new Date(id * 1000).toISOString(),
  instanceId: null,
});
/** A page as the API answers: newest first. */
const page = (ids: number[], nextBefore: number | null): JournalPage => ({ transitions: ids.map(row), nextBefore });
const ids = (state: HeldJournal) => state.rows.map((entry) => entry.id);
const run = (...actions: JournalPagesAction[]) => actions.reduce(journalPagesReducer, EMPTY_JOURNAL);

it('holds the newest page, then adds older pages asked for with the cursor it gave', () => {
  let state = run({ type: 'newest', page: page([30, 29, 27], 27) });
  expect(state).toMatchObject({ nextBefore: 27, before: undefined });
  state = journalPagesReducer(state, { type: 'loadOlder' });
  expect(state.before).toBe(27);
  state = journalPagesReducer(state, { type: 'older', before: 27, page: page([25, 21], null) });
  expect(ids(state)).toEqual([30, 29, 27, 25, 21]);
  expect(state.nextBefore).toBeNull();
  // nothing older to ask for
  expect(journalPagesReducer(state, { type: 'loadOlder' })).toBe(state);
});

it('keeps the rows it holds when the refetched newest page has moved on, and the same state when nothing is new', () => {
  const state = run(
    { type: 'newest', page: page([30, 29, 27], 27) },
    { type: 'loadOlder' },
    { type: 'older', before: 27, page: page([25], 25) },
  );
  const moved = journalPagesReducer(state, { type: 'newest', page: page([33, 30, 29], 29) });
  expect(ids(moved)).toEqual([33, 30, 29, 27, 25]);
  expect(moved.nextBefore).toBe(25);
  expect(journalPagesReducer(moved, { type: 'newest', page: page([33, 30, 29], 29) })).toBe(moved);
});

it('starts again from the newest page when more moved than a page holds, and drops a late older page', () => {
  const state = run({ type: 'newest', page: page([30, 29], 29) }, { type: 'loadOlder' });
  const restarted = journalPagesReducer(state, { type: 'newest', page: page([90, 80], 80) });
  expect(restarted).toEqual({ rows: page([90, 80], 80).transitions, nextBefore: 80, before: undefined });
  expect(journalPagesReducer(restarted, { type: 'older', before: 29, page: page([20], null) })).toBe(restarted);
});
