/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, renderHook } from '@testing-library/react';
import { initialReplay, replayFrame, replayReducer, stepWait, type ReplayAction, type ReplayState } from './journal-replay';
import { journalEntry as entry } from '@cbh/test-support';
import { useJournalReplay } from './useJournalReplay';

/** Oldest first: gaps of 30 s (capped to 5 s), 200 ms, 30 s and two hours (capped). */
const JOURNAL = [
  entry(11, 'CLOSED', 'OPEN', '5 consecutive failures', 0),
  entry(12, 'OPEN', 'HALF_OPEN', 'open period of 30 s elapsed', 30_000),
  entry(14, 'HALF_OPEN', 'OPEN', 'trial call failed', 30_200),
  entry(15, 'OPEN', 'HALF_OPEN', 'open period of 30 s elapsed', 60_200),
  entry(19, 'HALF_OPEN', 'CLOSED', '3 trial call(s) succeeded', 60_200 + 2 * 3600_000),
];

const run = (state: ReplayState, ...actions: ReplayAction[]) => actions.reduce(replayReducer, state);

describe('the replay reducer', () => {
  it('starts before the first transition', () => {
    expect(initialReplay(5)).toEqual({ step: 0, count: 5, playing: false, speed: 1 });
  });

  it('steps back and forth within 0 (the start of the journal) and the last step', () => {
    const start = initialReplay(5);
    expect(run(start, { type: 'previous' }).step).toBe(0);
    expect(run(start, { type: 'next' }, { type: 'next' }).step).toBe(2);
    const atEnd = run(start, ...Array.from({ length: 7 }, () => ({ type: 'next' }) as const));
    expect(atEnd.step).toBe(5);
    expect(run(atEnd, { type: 'previous' }).step).toBe(4);
    expect(run(start, { type: 'goTo', step: 9 }).step).toBe(5);
    expect(run(start, { type: 'goTo', step: -1 }).step).toBe(0);
    expect(run(start, { type: 'goTo', step: 3 }).step).toBe(3);
  });

  it('plays on each tick, stops on the last step, and starts over when played from the end', () => {
    let state = run(initialReplay(2), { type: 'play' });
    expect(state).toMatchObject({ step: 0, playing: true });
    state = run(state, { type: 'tick' });
    expect(state).toMatchObject({ step: 1, playing: true });
    state = run(state, { type: 'tick' });
    expect(state).toMatchObject({ step: 2, playing: false });
    expect(run(state, { type: 'play' })).toMatchObject({ step: 0, playing: true });
    // a tick arriving after Pause is ignored
    expect(run(initialReplay(2), { type: 'goTo', step: 1 }, { type: 'tick' }).step).toBe(1);
    // mid-journal, Play goes on from where it is
    expect(run(initialReplay(4), { type: 'goTo', step: 1 }, { type: 'play' })).toMatchObject({ step: 1, playing: true });
    expect(run(initialReplay(4), { type: 'play' }, { type: 'pause' }).playing).toBe(false);
  });

  it('has nothing to play in an empty journal', () => {
    expect(run(initialReplay(0), { type: 'play' })).toEqual(initialReplay(0));
  });

  it('stays at the start when the journal loads or grows older, follows new transitions from the last step, and else stays on its transition', () => {
    expect(run(initialReplay(0), { type: 'journalChanged', count: 3, olderAdded: 0 })).toMatchObject({ step: 0, count: 3 });
    expect(run(initialReplay(3), { type: 'journalChanged', count: 103, olderAdded: 100 }).step).toBe(0);
    expect(run(initialReplay(3), { type: 'goTo', step: 3 }, { type: 'journalChanged', count: 4, olderAdded: 0 }).step).toBe(4);
    const looking = run(initialReplay(3), { type: 'goTo', step: 2 });
    expect(run(looking, { type: 'journalChanged', count: 4, olderAdded: 0 }).step).toBe(2);
    expect(run(looking, { type: 'journalChanged', count: 103, olderAdded: 100 }).step).toBe(102);
    // while playing to the end, a new transition extends the replay instead of jumping to it
    const playing = run(initialReplay(3), { type: 'play' }, { type: 'tick' });
    expect(run(playing, { type: 'journalChanged', count: 4, olderAdded: 0 })).toMatchObject({ step: 1, count: 4, playing: true });
  });
});

describe('stepWait', () => {
  it('waits the real gap at 1×, at most 5 s, and a tenth of it at 10×', () => {
    expect([0, 1, 2, 3, 4].map((step) => stepWait(JOURNAL, step, 1))).toEqual([1000, 5000, 200, 5000, 5000]);
    expect([0, 1, 2, 3, 4].map((step) => stepWait(JOURNAL, step, 10))).toEqual([100, 500, 20, 500, 500]);
  });
});

describe('replayFrame', () => {
  it("lights the first transition's from at the start, then each step's to with its reason", () => {
    expect(replayFrame(JOURNAL, 0)).toEqual({ state: 'CLOSED', from: null, caption: 'Start of the journal', entry: null });
    expect(replayFrame(JOURNAL, 3)).toEqual({ state: 'OPEN', from: 'HALF_OPEN', caption: 'trial call failed', entry: JOURNAL[2] });
    expect(replayFrame(JOURNAL, 5)?.state).toBe('CLOSED');
    expect(replayFrame([], 0)).toBeNull();
  });
});

describe('useJournalReplay playing on a timer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const advance = (ms: number) => act(() => void jest.advanceTimersByTime(ms));

  it('at 1× waits the real gaps (capped at 5 s) between steps and stops at the end', () => {
    const { result } = renderHook(() => useJournalReplay(JOURNAL));
    const step = () => result.current[0].step;
    act(() => result.current[1]({ type: 'play' }));
    expect(step()).toBe(0);
    advance(999);
    expect(step()).toBe(0);
    advance(1);
    expect(step()).toBe(1);
    advance(4999); // 30 s really passed, the replay waits 5 s
    expect(step()).toBe(1);
    advance(1);
    expect(step()).toBe(2);
    advance(199);
    expect(step()).toBe(2);
    advance(1);
    expect(step()).toBe(3);
    advance(5000);
    expect(step()).toBe(4);
    advance(5000); // two hours, capped
    expect(result.current[0]).toMatchObject({ step: 5, playing: false });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('at 10× waits a tenth, Pause holds the step, and unmounting clears the timer', () => {
    const { result, unmount } = renderHook(() => useJournalReplay(JOURNAL));
    const step = () => result.current[0].step;
    act(() => result.current[1]({ type: 'speed', speed: 10 }));
    act(() => result.current[1]({ type: 'play' }));
    advance(100);
    expect(step()).toBe(1);
    advance(499);
    expect(step()).toBe(1);
    advance(1);
    expect(step()).toBe(2);
    advance(20);
    expect(step()).toBe(3);
    act(() => result.current[1]({ type: 'pause' }));
    advance(10_000);
    expect(step()).toBe(3);
    act(() => result.current[1]({ type: 'play' }));
    expect(jest.getTimerCount()).toBe(1);
    unmount();
    expect(jest.getTimerCount()).toBe(0);
  });
});
