import { useEffect, useMemo, useState } from 'react';
import type { BreakerStats, BreakerStateName } from '@cbh/contracts';
import { STATE_LEVEL, StateChart, useMetricsHistory } from '@cbh/breaker-widgets';
import { Card, Muted, StatCard } from '@cbh/ui';
import { Grid, Section } from './Section';
import {
  liveFigures,
  nextSimulatedFigures,
  SIMULATION_INTERVAL_MS,
  SIMULATION_START,
  simulatedState,
  worstState,
  type MonitoringFigures,
} from './monitoring';

interface Sample {
  at: number;
  figures: MonitoringFigures;
  state: BreakerStateName;
}

const TIMELINE_LENGTH = 40;

/** Signed out: a local simulation with random figures, a new sample every 3 s. */
export function useSimulatedSamples(): Sample[] {
  const [samples, setSamples] = useState<Sample[]>(() => [
    { at: Date.now() / 1000, figures: SIMULATION_START, state: simulatedState(SIMULATION_START) },
  ]);
  useEffect(() => {
    const timer = setInterval(() => {
      setSamples((current) => {
        const figures = nextSimulatedFigures(current[current.length - 1]!.figures);
        return [...current.slice(-(TIMELINE_LENGTH - 1)), { at: Date.now() / 1000, figures, state: simulatedState(figures) }];
      });
    }, SIMULATION_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);
  return samples;
}

/** Signed in: the real figures of every breaker, from each metricsUpdate (the latest metrics until the first). */
function useLiveSamples(latest: BreakerStats[] | undefined): Sample[] {
  const history = useMetricsHistory(TIMELINE_LENGTH);
  return useMemo(() => {
    const samples = history.map((sample) => ({ at: sample.at, figures: liveFigures(sample.stats), state: worstState(sample.stats) }));
    if (samples.length === 0 && latest) samples.push({ at: Date.now() / 1000, figures: liveFigures(latest), state: worstState(latest) });
    return samples;
  }, [history, latest]);
}

function Panel({ samples, simulated }: { samples: Sample[]; simulated: boolean }) {
  const figures = samples[samples.length - 1]?.figures ?? SIMULATION_START;
  const timeline = useMemo(
    () => [samples.map((sample) => sample.at), samples.map((sample) => STATE_LEVEL[sample.state])] as [number[], number[]],
    [samples],
  );
  return (
    <>
      <Grid $min={180} data-testid="monitoring-figures">
        <StatCard label="Success Rate" value={`${figures.successRate}%`} />
        <StatCard label="Avg Response Time" value={`${figures.averageResponseTime}ms`} />
        <StatCard label="Requests / Min" value={figures.requestsPerMinute.toLocaleString('en-US')} />
        <StatCard label="Failed Calls" value={figures.failedCalls} />
      </Grid>
      <Card style={{ marginTop: 16 }} aria-label="State timeline">
        <h3 style={{ margin: '0 0 8px', fontSize: 16 }}>State timeline</h3>
        <StateChart title="System state" data={timeline} height={120} />
        <Muted style={{ fontSize: 13, marginTop: 6 }}>
          {simulated
            ? 'Simulated data, refreshed every 3 seconds. Sign in to watch your own breakers.'
            : 'Every breaker together over the last 10 seconds, updated live; the timeline shows the worst state of any breaker.'}
        </Muted>
      </Card>
    </>
  );
}

function LivePanel({ latest }: { latest: BreakerStats[] | undefined }) {
  return <Panel samples={useLiveSamples(latest)} simulated={false} />;
}

function SimulatedPanel() {
  return <Panel samples={useSimulatedSamples()} simulated />;
}

export function MonitoringPanel({ live, latest }: { live: boolean; latest: BreakerStats[] | undefined }) {
  return (
    <Section
      id="monitoring"
      title="Real-time Monitoring"
      intro="Success rate, response time, throughput and failures, with the breaker state over time."
    >
      {live ? <LivePanel latest={latest} /> : <SimulatedPanel />}
    </Section>
  );
}
