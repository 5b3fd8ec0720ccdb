import { useMemo } from 'react';
import { useGetBreakersQuery } from '@cbh/api-client';
import type { BreakerConfigView } from '@cbh/contracts';

/** A breaker a drill may name, as its select shows it. */
export interface BreakerChoice {
  id: number;
  name: string;
  service: string | null;
  /** 'payments', or 'charge (checkout)' for a service's breaker. */
  label: string;
}

const choiceOf = (breaker: BreakerConfigView): BreakerChoice => ({
  id: breaker.id,
  name: breaker.name,
  service: breaker.service,
  label: breaker.service ? `${breaker.name} (${breaker.service})` : breaker.name,
});

/**
 * The breakers on the wall a drill may name, by name: a fault reaches a breaker through its service's agent or the
 * hub's own engine, so a step names only those; a scraped breaker has neither, but its state may still be expected.
 */
export function useBreakerChoices() {
  const breakers = useGetBreakersQuery();
  return useMemo(() => {
    const all = (breakers.data ?? []).map(choiceOf).sort((a, b) => a.label.localeCompare(b.label, 'en'));
    const drillable = new Set((breakers.data ?? []).filter((breaker) => breaker.source !== 'scrape').map((breaker) => breaker.id));
    return {
      loaded: breakers.data !== undefined,
      failed: breakers.isError,
      steps: all.filter((choice) => drillable.has(choice.id)),
      expectations: all,
      byId: new Map(all.map((choice) => [String(choice.id), choice])),
    };
  }, [breakers.data, breakers.isError]);
}
export type BreakerChoices = ReturnType<typeof useBreakerChoices>;
