import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';

/** 'changed 12 s ago' counts in seconds. */
const TICK_MS = 1000;

const NowContext = createContext<number>(Date.now());

/**
 * One clock for every tile below it. Only the components reading it re-render on a tick: the children are the
 * same elements each time, so the memoised tiles between are skipped.
 */
export function NowProvider({ children }: { children: ReactNode }) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return <NowContext.Provider value={now}>{children}</NowContext.Provider>;
}

/** The time of the last tick, in ms since the epoch. */
export const useNow = () => useContext(NowContext);
