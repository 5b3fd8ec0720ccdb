import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';

/** 'changed 12 s ago' and 'reported 3 s ago' count in seconds. */
const TICK_MS = 1000;

/** A clock that ticks once a second and tells its readers. */
class TickingClock {
  now = Date.now();
  private readonly listeners = new Set<() => void>();
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  tick() {
    this.now = Date.now();
    this.listeners.forEach((listener) => listener());
  }
}

const ClockContext = createContext<TickingClock>(new TickingClock());

/** One clock for every reader below it (the wall's tiles, an instance's last report); they re-render only when their text changes. */
export function NowProvider({ children }: { children: ReactNode }) {
  const [clock] = useState(() => new TickingClock());
  useEffect(() => {
    const timer = setInterval(() => clock.tick(), TICK_MS);
    return () => clearInterval(timer);
  }, [clock]);
  return <ClockContext.Provider value={clock}>{children}</ClockContext.Provider>;
}

/**
 * A text that depends on the time, recomputed on every tick; the component re-renders only when the text changes
 * ('changed 5 min ago' changes once a minute), so 200 tiles cost almost nothing per tick.
 */
export function useTimeText(text: (now: number) => string): string {
  const clock = useContext(ClockContext);
  return useSyncExternalStore(clock.subscribe, () => text(clock.now));
}
