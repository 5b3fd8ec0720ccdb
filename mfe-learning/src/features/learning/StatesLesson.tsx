import { useEffect } from 'react';
import styled from 'styled-components';
import { REJECTION_MESSAGES } from '@cbh/breaker';
import { useLocation } from '@cbh/router';
import { Card, Dot, Muted, STATE_COLORS, theme } from '@cbh/ui';
import { BreakerDiagram } from './BreakerDiagram';
import { Grid, Section } from './Section';

const Code = styled.pre`
  margin: 0;
  padding: 16px;
  border-radius: ${theme.radius};
  background: #0f172a;
  color: #e2e8f0;
  font-size: 13px;
  line-height: 1.5;
  overflow-x: auto;
`;

const STATES = [
  {
    state: 'CLOSED',
    title: 'Closed',
    text: 'Normal operation: calls pass through and failures are counted. Reaching the failure threshold opens the breaker.',
  },
  {
    state: 'OPEN',
    title: 'Open',
    text: 'Fail fast: calls are rejected at once without touching the failing service, until the timeout has passed.',
  },
  {
    state: 'HALF_OPEN',
    title: 'Half-Open',
    text: 'Testing recovery: a trial call goes through. Success closes the breaker and resets the count; failure opens it again.',
  },
] as const;

const SAMPLE = `class CircuitBreaker {
  constructor(failureThreshold = 5, timeout = 30000) {
    this.failureThreshold = failureThreshold;
    this.timeout = timeout;
    this.failureCount = 0;
    this.state = 'CLOSED';
    this.nextAttempt = Date.now();
  }

  async call(operation) {
    if (this.state === 'OPEN') {
      if (Date.now() < this.nextAttempt) {
        throw new Error('${REJECTION_MESSAGES['short-circuited']}');
      }
      this.state = 'HALF_OPEN';
    }
    try {
      const result = await operation();
      this.onSuccess();
      return result;
    } catch (error) {
      this.onFailure();
      throw error;
    }
  }

  onSuccess() {
    this.failureCount = 0;
    this.state = 'CLOSED';
  }

  onFailure() {
    this.failureCount++;
    if (this.failureCount >= this.failureThreshold) {
      this.state = 'OPEN';
      this.nextAttempt = Date.now() + this.timeout;
    }
  }
}`;

/**
 * The three states, a minimal implementation, and a live breaker to step through. Other pages link here as
 * `/#learn` (the microservices demonstration does); the page is drawn after the navigation, so it scrolls here
 * itself.
 */
export function StatesLesson() {
  const { hash } = useLocation();
  useEffect(() => {
    if (hash === '#learn') document.getElementById('learn')?.scrollIntoView?.({ block: 'start' });
  }, [hash]);
  return (
    <Section
      id="learn"
      title="How a Circuit Breaker Works"
      intro="Three states and two numbers: how many failures open it, and how long it stays open."
    >
      <Grid $min={220} style={{ marginBottom: 16 }}>
        {STATES.map(({ state, title, text }) => (
          <Card key={state} aria-label={`${title} state`}>
            <h3>
              <Dot $color={STATE_COLORS[state]} aria-hidden /> {title}
            </h3>
            <Muted>{text}</Muted>
          </Card>
        ))}
      </Grid>
      <Grid $min={360}>
        <Card aria-label="Sample implementation">
          <h3>A minimal implementation</h3>
          <Code tabIndex={0} aria-label="Sample code">
            <code>{SAMPLE}</code>
          </Code>
        </Card>
        <BreakerDiagram />
      </Grid>
    </Section>
  );
}
