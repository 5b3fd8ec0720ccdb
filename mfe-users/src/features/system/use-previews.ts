import { useCallback, useState } from 'react';

/** How long the hub keeps a pin: the Max-Age of its pins cookie. */
export const PREVIEW_MS = 24 * 60 * 60 * 1000;

const STORAGE_KEY = 'cbh.release-previews';

/** The version this browser previews of each remote, and until when. */
export type Previews = Record<string, { versionId: number; until: number }>;

// The pins cookie is HttpOnly, so the page cannot read what it holds: what this tab pinned is remembered here instead,
// for the tab's session, and dropped once the cookie has run out.
function stored(now: number): Previews {
  try {
    const previews = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Previews;
    return Object.fromEntries(Object.entries(previews).filter(([, preview]) => preview.until > now));
  } catch {
    return {};
  }
}

function store(previews: Previews) {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(previews));
  } catch {
    // storage refused (a private window's quota): the preview still works, this tab just forgets it on reload
  }
}

/** The remotes this browser previews a version of, and a setter to call once the hub has set (or ended) a pin. */
export function usePreviews(): [Previews, (remote: string, versionId: number | null) => void] {
  const [previews, setPreviews] = useState<Previews>(() => stored(Date.now()));
  const pinned = useCallback((remote: string, versionId: number | null) => {
    setPreviews((current) => {
      // the hub writes every pin back into one cookie with a fresh day, so each pin kept runs a day from now
      const until = Date.now() + PREVIEW_MS;
      const next: Previews = Object.fromEntries(
        Object.entries(current)
          .filter(([name]) => name !== remote)
          .map(([name, preview]) => [name, { ...preview, until }]),
      );
      if (versionId !== null) next[remote] = { versionId, until };
      store(next);
      return next;
    });
  }, []);
  return [previews, pinned];
}
