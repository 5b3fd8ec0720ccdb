import { useEffect, useRef, useState, type RefObject } from 'react';
import type { BreakerConfigView, BreakerStats } from '@cbh/contracts';

/** Tiles this close to the viewport count as shown, so a scroll finds them already current. */
const MARGIN = '300px';

/**
 * The ids of the tiles on or near the screen, from an IntersectionObserver on the grid's tiles (each carries
 * data-breaker-id); null where the browser has no IntersectionObserver, meaning all.
 */
export function useVisibleTiles(grid: RefObject<HTMLElement | null>, layoutKey: string): ReadonlySet<number> | null {
  const [visible, setVisible] = useState<ReadonlySet<number> | null>(null);
  const observer = useRef<IntersectionObserver | null>(null);
  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    const shown = new Set<number>();
    observer.current = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = Number((entry.target as HTMLElement).dataset.breakerId);
          if (entry.isIntersecting) shown.add(id);
          else shown.delete(id);
        }
        setVisible(new Set(shown));
      },
      { rootMargin: MARGIN },
    );
    return () => observer.current?.disconnect();
  }, []);
  // tiles added, removed or reordered: observe what is in the grid now (observing a tile twice does nothing)
  useEffect(() => {
    const tiles = grid.current?.querySelectorAll<HTMLElement>('[data-breaker-id]') ?? [];
    tiles.forEach((tile) => observer.current?.observe(tile));
  }, [grid, layoutKey]);
  return visible;
}

interface Shown {
  stats: BreakerStats | undefined;
  callRates: readonly number[];
}

/**
 * What each tile shows: the latest figures for the tiles on screen, and for the others what they showed last, so
 * that their memoised components skip the update. An off-screen tile catches up the moment it scrolls into view.
 * With 200 breakers, a metricsUpdate then renders the twenty or so tiles in view instead of all of them.
 */
export function useShownFigures(visible: ReadonlySet<number> | null) {
  const last = useRef(new Map<number, Shown>());
  return (breaker: BreakerConfigView, live: Shown): Shown => {
    const shown = visible === null || visible.has(breaker.id) ? live : (last.current.get(breaker.id) ?? live);
    last.current.set(breaker.id, shown);
    return shown;
  };
}
