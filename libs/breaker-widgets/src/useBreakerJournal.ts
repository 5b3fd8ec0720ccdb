import { useEffect, useMemo, useReducer } from 'react';
import { skipToken, useGetBreakerJournalQuery } from '@cbh/api-client';
import { EMPTY_JOURNAL, journalPagesReducer } from './journal-pages';

/**
 * One breaker's transition journal, oldest first. The newest page is refetched each time the breaker moves (the
 * live stateChange invalidates it); 'loadOlder' asks for the page before the oldest row held.
 */
export function useBreakerJournal(configId: number) {
  const [held, dispatch] = useReducer(journalPagesReducer, EMPTY_JOURNAL);
  const newest = useGetBreakerJournalQuery({ id: configId });
  const before = held.before;
  const older = useGetBreakerJournalQuery(before === undefined ? skipToken : { id: configId, before });

  useEffect(() => {
    if (newest.currentData) dispatch({ type: 'newest', page: newest.currentData });
  }, [newest.currentData]);
  useEffect(() => {
    if (older.currentData && before !== undefined) dispatch({ type: 'older', before, page: older.currentData });
  }, [older.currentData, before]);

  const entries = useMemo(() => [...held.rows].reverse(), [held.rows]);
  return {
    entries,
    loading: newest.isLoading,
    error: newest.error ?? older.error,
    hasOlder: held.nextBefore !== null,
    loadingOlder: older.isFetching,
    loadOlder: () => dispatch({ type: 'loadOlder' }),
  };
}
