import { useEffect, useState } from 'react';
import { BreakerStateDiagram } from '@cbh/breaker-widgets';
import type { BreakerConfigView, BreakerStateName, BreakerStats } from '@cbh/contracts';
import { Card, Muted, StatCard, StatGrid, StateBadge } from '@cbh/ui';
import { stateWords } from './guided-drill';

/** The state before the current one, so the diagram lights the arrow the breaker just took. */
function usePreviousState(state: BreakerStateName | undefined): BreakerStateName | null {
  const [seen, setSeen] = useState<{ current: BreakerStateName | undefined; from: BreakerStateName | null }>({
    current: state,
    from: null,
  });
  useEffect(() => {
    setSeen((last) => (last.current === state ? last : { current: state, from: last.current ?? null }));
  }, [state]);
  return seen.current === state ? seen.from : null;
}

/**
 * The Inventory Service breaker as the store's latest metrics have it (written by every metricsUpdate and
 * stateChange over /ws): the state diagram the playground above teaches with, and the figures its trip rule reads.
 */
export function GuidedDrillBreaker({ breaker, stats }: { breaker: BreakerConfigView; stats: BreakerStats | undefined }) {
  const from = usePreviousState(stats?.state);
  const limit = breaker.slowCallDuration ?? 1000;
  return (
    <Card aria-labelledby="guided-drill-breaker-title" data-testid="guided-drill-breaker">
      <h3 id="guided-drill-breaker-title" style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, margin: '0 0 8px' }}>
        {breaker.name}, live {stats ? <StateBadge state={stats.state} /> : null}
      </h3>
      {stats ? (
        <>
          <p role="status" aria-label="Live state" data-testid="guided-drill-state" style={{ margin: '0 0 12px' }}>
            {stateWords(stats.state)}
          </p>
          <BreakerStateDiagram state={stats.state} from={from} />
          <StatGrid style={{ marginTop: 12 }}>
            <StatCard label="Calls / s" value={stats.requestsPerSecond} />
            <StatCard label="Avg response" value={`${Math.round(stats.latency.mean)} ms`} note={`Slow above ${limit} ms`} />
            <StatCard label="Failed or refused" value={`${stats.errorPercentage}%`} />
            <StatCard label="Refused while open" value={stats.shortCircuitedCount} />
          </StatGrid>
          <Muted style={{ fontSize: 13, marginTop: 8 }}>
            Over the last 10 seconds, updated live. A slow call that succeeds is not counted as failed here, but the breaker counts it
            against the service.
          </Muted>
        </>
      ) : (
        <Muted role="status">Waiting for the live figures…</Muted>
      )}
    </Card>
  );
}
