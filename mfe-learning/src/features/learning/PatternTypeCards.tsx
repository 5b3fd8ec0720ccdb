import type { BreakerConfigView, BreakerTypeName } from '@cbh/contracts';
import { BREAKER_TYPES } from '@cbh/contracts';
import { Badge, Button, Card, Muted } from '@cbh/ui';
import { Grid, Section } from './Section';

/** The sample settings (threshold 5, timeout 30 s) the cards show when there is no breaker of that type to show. */
export const SAMPLE_SETTINGS = { failureThreshold: 5, timeout: 30_000 } as const;

const TYPES: Record<BreakerTypeName, { title: string; text: string }> = {
  simple: { title: 'Simple', text: 'Counts consecutive failures and opens at the threshold; after the timeout a trial call decides.' },
  adaptive: {
    title: 'Adaptive',
    text: 'Judges the failure rate over a sliding window, slow calls included; its threshold and open time adapt to recent behaviour.',
  },
  bulkhead: { title: 'Bulkhead', text: 'A simple breaker plus a cap on calls in flight, so one slow dependency cannot take every thread.' },
};

/** An adaptive breaker's threshold moves within t−2…t+3 and its open time within timeout/2…timeout. */
export function adaptiveRanges(failureThreshold: number, timeoutMs: number) {
  return {
    threshold: [failureThreshold - 2, failureThreshold + 3] as const,
    timeoutSeconds: [timeoutMs / 2000, timeoutMs / 1000] as const,
  };
}

export interface PatternTypeCardsProps {
  breakers: BreakerConfigView[] | undefined;
  /** Called with the breaker to configure, or null when there is none of that type. */
  onConfigure: (breaker: BreakerConfigView | null) => void;
}

export function PatternTypeCards({ breakers, onConfigure }: PatternTypeCardsProps) {
  return (
    <Section id="pattern-types" title="Circuit Breaker Types" intro="Three ways to decide when to stop calling a failing dependency.">
      <Grid>
        {BREAKER_TYPES.map((type) => {
          const ofType = breakers?.filter((entry) => entry.type === type) ?? [];
          const breaker = ofType[0] ?? null;
          const settings = breaker ?? SAMPLE_SETTINGS;
          const ranges = adaptiveRanges(settings.failureThreshold, settings.timeout);
          return (
            <Card key={type} aria-label={`${TYPES[type].title} circuit breaker`} data-testid={`type-card-${type}`}>
              <h3>
                {TYPES[type].title} <Badge>{breakers ? `${ofType.length} configured` : type}</Badge>
              </h3>
              <Muted>{TYPES[type].text}</Muted>
              {/* two lines kept for it: the sample line shown while the breakers load is shorter than a breaker's, which
                  may wrap, and the card must not grow under the reader when they arrive */}
              <p style={{ fontSize: 14, lineHeight: 1.5, minHeight: '3em' }}>
                {breaker ? `${breaker.name}: ` : 'Sample: '}failure threshold {settings.failureThreshold}, timeout {settings.timeout / 1000}{' '}
                s
              </p>
              {type === 'adaptive' ? (
                <p style={{ fontSize: 14 }} data-testid="adaptive-ranges">
                  Threshold range: {ranges.threshold[0]} – {ranges.threshold[1]}
                  <br />
                  Timeout range: {ranges.timeoutSeconds[0]}s – {ranges.timeoutSeconds[1]}s
                </p>
              ) : null}
              <Button onClick={() => onConfigure(breaker)}>Configure &amp; Test</Button>
            </Card>
          );
        })}
      </Grid>
    </Section>
  );
}
