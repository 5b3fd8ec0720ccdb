import { useEffect, useMemo, useState } from 'react';
import styled from 'styled-components';
import type { BreakerStats, BreakerStateName } from '@cbh/contracts';
import { STATE_LEVEL, StateChart, useMetricsHistory } from '@cbh/breaker-widgets';
import { Badge, Card, formatCount, Muted, StatCard, theme } from '@cbh/ui';
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

/** Said of the signed-out panel's figures, above them and on each: they are made up in the browser, not measured. */
export const SAMPLE_NOTICE = `These are sample figures, made up in your browser every ${SIMULATION_INTERVAL_MS / 1000} seconds to show what the panel does; no service is measured. Sign in to see your own breakers.`;
export const SAMPLE_NOTE = 'Sample figure';
// amber, dark enough for its white text (7:1); the theme's warning yellow is too light for 12 px type
const SAMPLE_BADGE = '#92400e';

const SampleNotice = styled.p`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px 10px;
  margin: 0 0 12px;
  font-size: 14px;
  color: ${theme.colors.muted};
`;

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
  const note = simulated ? SAMPLE_NOTE : undefined;
  const timeline = useMemo(
    () => [samples.map((sample) => sample.at), samples.map((sample) => STATE_LEVEL[sample.state])] as [number[], number[]],
    [samples],
  );
  return (
    <>
      {simulated ? (
        <SampleNotice role="note" aria-label="Sample figures">
          <Badge $color={SAMPLE_BADGE}>Sample</Badge>
          <span>{SAMPLE_NOTICE}</span>
        </SampleNotice>
      ) : null}
      <Grid $min={180} data-testid="monitoring-figures">
        <StatCard label="Success Rate" value={`${figures.successRate}%`} note={note} />
        <StatCard label="Avg Response Time" value={`${figures.averageResponseTime}ms`} note={note} />
        <StatCard label="Requests / Min" value={formatCount(figures.requestsPerMinute)} note={note} />
        <StatCard label="Failed Calls" value={figures.failedCalls} note={note} />
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
