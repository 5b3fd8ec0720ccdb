import styled from 'styled-components';
import { ButtonLink, Card, Muted } from '@cbh/ui';
import { LearningContent } from '../learning/LearningContent';
import { SiteFooter } from '../learning/SiteFooter';

const Features = styled.ul`
  margin: 12px 0 0;
  padding-left: 20px;
  display: grid;
  gap: 4px;
`;

/** What an account can do, advertised to visitors (§1); none links anywhere, since each page needs signing in. */
const FEATURES = [
  'Simple, adaptive and bulkhead circuit breakers, configured in the browser',
  "Load tests run through them, with each breaker's state watched live",
  'Domain management: SSL certificates, DNS records, verification, uptime monitoring and alerts',
  'User management with roles, invitations and per-user permissions',
  'Audit trails: every change recorded with who made it, what it changed and when',
];

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
        <Muted>Sign in for everything the hub does:</Muted>
        <Features aria-label="Features">
          {FEATURES.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </Features>
        <div style={{ marginTop: 12 }}>
          <ButtonLink href="/api/login">Start Building Today</ButtonLink>
        </div>
      </Card>
      <SiteFooter />
    </article>
  );
}
