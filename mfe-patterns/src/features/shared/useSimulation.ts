import { useEffect, useState, useSyncExternalStore } from 'react';

/** What a page needs of an engine of @cbh/simulations. */
interface Engine {
  subscribe(listener: () => void): () => void;
  getSnapshot(): unknown;
  stop(): void;
}

/**
 * A fresh engine for as long as the page is open: made when the page mounts, started, stopped (every timer
 * cleared) when it is left; opening the page again starts anew. The component re-renders on each new snapshot.
 */
export function useSimulation<E extends Engine>(make: () => E, start?: (engine: E) => void): [ReturnType<E['getSnapshot']>, E] {
  const [engine] = useState(make);
  useEffect(() => {
    start?.(engine);
    return () => engine.stop();
    // the engine is made once per mount; start is a fixed function of the page
  }, [engine]);
  const state = useSyncExternalStore(engine.subscribe, engine.getSnapshot, engine.getSnapshot);
  return [state as ReturnType<E['getSnapshot']>, engine];
}
