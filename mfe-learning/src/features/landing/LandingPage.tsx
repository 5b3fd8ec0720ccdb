import styled from 'styled-components';
import { ButtonLink, Card, Muted } from '@cbh/ui';
import { LearningContent } from '../learning/LearningContent';
import { SiteFooter } from '../learning/SiteFooter';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  margin: 16px 0 32px;
`;

/** What a signed-out visitor sees at /. */
export function LandingPage() {
  return (
    <article>
      <LearningContent
        user={null}
        title="Master Circuit Breaker Patterns"
        description="Learn how circuit breakers keep distributed systems resilient, then configure, load-test and monitor your own."
        heroActions={
          <Actions>
            <ButtonLink href="/api/login">Get Started</ButtonLink>
            <ButtonLink href="/api/login" $variant="outline">
              Login
            </ButtonLink>
            <ButtonLink href="#pattern-types" $variant="ghost">
              View Demo
            </ButtonLink>
          </Actions>
        }
      />
      <Card id="start-building" aria-label="Start Building Today">
        <h2 style={{ marginTop: 0 }}>Start Building Today</h2>
        <Muted>Sign in to configure simple, adaptive and bulkhead breakers, run load tests through them and watch their state live.</Muted>
        <div style={{ marginTop: 12 }}>
          <ButtonLink href="/api/login">Start Building Today</ButtonLink>
        </div>
      </Card>
      <SiteFooter />
    </article>
  );
}
