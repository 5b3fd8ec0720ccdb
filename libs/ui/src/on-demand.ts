import { useSyncExternalStore } from 'react';

/**
 * A module fetched on first use rather than with the page: `load()` starts the download (once; again after a
 * failure, so a later use retries), `use()` is the module once it has arrived, undefined before. Components
 * that show nothing until first use (the toast region, tooltip popups) keep their code out of the first paint.
 */
export function onDemand<T>(load: () => Promise<T>, what: string) {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  const current = () => loaded;

  return {
    load(): Promise<T | undefined> {
      loading ??= load().then((module) => {
        loaded = module;
        listeners.forEach((listener) => listener());
        return module;
      });
      return loading.catch((error: unknown) => {
        loading = undefined;
        console.warn(`[ui] ${what} could not be loaded`, error);
        return undefined;
      });
    },
    use(): T | undefined {
      return useSyncExternalStore(subscribe, current, current);
    },
  };
}
