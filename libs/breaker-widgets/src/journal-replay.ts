import type { BreakerStateName, JournalEntry } from '@cbh/contracts';

/**
 * Stepping through a breaker's transition journal, as plain functions. Step 0 is the start of the journal (the
 * state before its first transition); step k (1…count) is the moment just after the k-th transition, oldest first.
 */

export const REPLAY_SPEEDS = [1, 10] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

/** At 1× a step waits the real time between its transitions, but never longer: a quiet night must not stall the replay. */
export const MAX_STEP_WAIT_MS = 5000;
/** Before the first transition there is no earlier one to measure from. */
export const FIRST_STEP_WAIT_MS = 1000;

export interface ReplayState {
  step: number;
  /** How many transitions the journal holds. */
  count: number;
  playing: boolean;
  speed: ReplaySpeed;
}

export type ReplayAction =
  | { type: 'next' }
  | { type: 'previous' }
  | { type: 'goTo'; step: number }
  | { type: 'play' }
  | { type: 'pause' }
  /** The play timer fired: one step on. */
  | { type: 'tick' }
  | { type: 'speed'; speed: ReplaySpeed }
  /** The journal changed: `olderAdded` transitions were loaded before the ones already held. */
  | { type: 'journalChanged'; count: number; olderAdded: number };

/** A replay starts before the first transition, as a recording does. */
export function initialReplay(count: number): ReplayState {
  return { step: 0, count, playing: false, speed: 1 };
}

const clamp = (step: number, count: number) => Math.min(count, Math.max(0, step));

function move(state: ReplayState, step: number): ReplayState {
  const next = clamp(step, state.count);
  // playing stops on the last step; there is nothing to wait for
  return { ...state, step: next, playing: state.playing && next < state.count };
}

export function replayReducer(state: ReplayState, action: ReplayAction): ReplayState {
  switch (action.type) {
    case 'next':
      return move(state, state.step + 1);
    case 'previous':
      return move(state, state.step - 1);
    case 'goTo':
      return move(state, action.step);
    case 'play':
      if (state.count === 0) return state;
      // from the end, Play starts over, as a media player does
      return { ...state, step: state.step >= state.count ? 0 : state.step, playing: true };
    case 'pause':
      return { ...state, playing: false };
    case 'tick':
      return state.playing ? move(state, state.step + 1) : state;
    case 'speed':
      return { ...state, speed: action.speed };
    case 'journalChanged': {
      // At the start, stay at the start (which older pages move earlier). On the last step, not replaying, keep
      // showing the breaker's state now as transitions arrive. Anywhere else, stay on the same transition,
      // wherever older pages put it.
      if (state.step === 0) return { ...state, count: action.count };
      const following = !state.playing && state.step === state.count;
      return move({ ...state, count: action.count }, following ? action.count : state.step + action.olderAdded);
    }
  }
}

/** How long Play waits on `step` before showing the next one: the real gap, at most 5 s, divided by the speed. */
export function stepWait(entries: readonly Pick<JournalEntry, 'at'>[], step: number, speed: ReplaySpeed): number {
  const before = entries[step - 1];
  const after = entries[step];
  const gap = before && after ? Date.parse(after.at) - Date.parse(before.at) : FIRST_STEP_WAIT_MS;
  return Math.min(MAX_STEP_WAIT_MS, Math.max(0, gap)) / speed;
}

export interface ReplayFrame {
  /** The state lit on the diagram. */
  state: BreakerStateName;
  /** Where it came from (null at the start of the journal). */
  from: BreakerStateName | null;
  caption: string;
  /** The transition just applied, if any. */
  entry: JournalEntry | null;
}

export const START_CAPTION = 'Start of the journal';

/** What the diagram shows at a step; null for an empty journal. */
export function replayFrame(entries: readonly JournalEntry[], step: number): ReplayFrame | null {
  const first = entries[0];
  if (!first) return null;
  const entry = step > 0 ? entries[Math.min(step, entries.length) - 1]! : null;
  return entry
    ? { state: entry.to, from: entry.from, caption: entry.reason, entry }
    : { state: first.from, from: null, caption: START_CAPTION, entry: null };
}
