import { useEffect, useReducer, useRef } from 'react';
import type { JournalEntry } from '@cbh/contracts';
import { initialReplay, replayReducer, stepWait } from './journal-replay';

/** The replay's state over a journal (oldest first), with Play's timer: one step per real gap, cleared on unmount. */
export function useJournalReplay(entries: readonly JournalEntry[]) {
  const [replay, dispatch] = useReducer(replayReducer, entries.length, initialReplay);

  // Tell the reducer how the journal changed, so the step shown stays on the same transition.
  const seen = useRef({ count: entries.length, firstId: entries[0]?.id });
  useEffect(() => {
    const previous = seen.current;
    const firstId = entries[0]?.id;
    if (previous.count === entries.length && previous.firstId === firstId) return;
    seen.current = { count: entries.length, firstId };
    const olderAdded =
      previous.firstId === undefined
        ? 0
        : Math.max(
            0,
            entries.findIndex((entry) => entry.id === previous.firstId),
          );
    dispatch({ type: 'journalChanged', count: entries.length, olderAdded });
  }, [entries]);

  const { playing, step, speed } = replay;
  useEffect(() => {
    if (!playing) return;
    const timer = setTimeout(() => dispatch({ type: 'tick' }), stepWait(entries, step, speed));
    return () => clearTimeout(timer);
  }, [playing, step, speed, entries]);

  return [replay, dispatch] as const;
}
