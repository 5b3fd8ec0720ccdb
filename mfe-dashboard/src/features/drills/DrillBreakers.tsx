import { useMemo } from 'react';
import styled from 'styled-components';
import { useGetBreakersQuery, useGetLatestMetricsQuery } from '@cbh/api-client';
import { useMetricsHistory } from '@cbh/breaker-widgets';
import type { DrillView } from '@cbh/contracts';
import { Card, Muted, SectionTitle } from '@cbh/ui';
import { BreakerTile } from '../breaker-wall/BreakerTile';
import { callRateSeries, SPARKLINE_SAMPLES } from '../breaker-wall/wall-view';

// the wall's grid: tiles of at least 220 px, one column on a phone
const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(220px, 100%), 1fr));
  gap: 12px;
`;

const NO_POINTS: readonly number[] = [];

/** The breakers a drill names, in its steps then its expectations, each once. */
export function drillBreakerIds(drill: DrillView): number[] {
  return [...new Set([...drill.steps.map((step) => step.breaker.id), ...drill.expectations.map((each) => each.breaker.id)])];
}

/**
 * The drill's breakers as the wall draws them, live: the shell's connection writes every metricsUpdate and stateChange
 * into the figures these read, so a breaker opening under the fault turns red here at once.
 */
export function DrillBreakers({ drill }: { drill: DrillView }) {
  const breakers = useGetBreakersQuery();
  const metrics = useGetLatestMetricsQuery();
  const samples = useMetricsHistory(SPARKLINE_SAMPLES);
  const callRates = useMemo(() => callRateSeries(samples), [samples]);
  const ids = drillBreakerIds(drill);
  const shown = (breakers.data ?? []).filter((breaker) => ids.includes(breaker.id)).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  return (
    <Card aria-labelledby="drill-breakers-title">
      <SectionTitle id="drill-breakers-title">Breakers</SectionTitle>
      {breakers.data === undefined ? (
        <Muted role="status">{breakers.isError ? 'The breakers could not be loaded.' : 'Loading breakers…'}</Muted>
      ) : shown.length === 0 ? (
        <Muted>The breakers this drill named are gone.</Muted>
      ) : (
        <Grid>
          {shown.map((breaker) => (
            <BreakerTile
              key={breaker.id}
              breaker={breaker}
              stats={metrics.data?.stats.find((stats) => stats.configId === breaker.id)}
              callRates={callRates.get(breaker.id) ?? NO_POINTS}
            />
          ))}
        </Grid>
      )}
    </Card>
  );
}
