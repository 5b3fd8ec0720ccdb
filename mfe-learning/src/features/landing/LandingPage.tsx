import styled from 'styled-components';
import { ButtonLink, Card, Muted, PageHeader, theme } from '@cbh/ui';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  margin: 16px 0 32px;
`;

const Footer = styled.footer`
  display: grid;
  grid-template-columns: 2fr 1fr 1fr;
  gap: 24px;
  margin-top: 48px;
  padding-top: 24px;
  border-top: 1px solid ${theme.colors.border};
  h2 {
    margin: 0 0 8px;
    font-size: 16px;
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 6px;
    font-size: 14px;
  }
`;

// The footer's links are placeholders until the resources exist.
const RESOURCES = ['Documentation', 'API Reference', 'Code Examples', 'Best Practices'];
const COMMUNITY = ['GitHub Repository', 'Discord Community', 'Stack Overflow', 'Blog Posts'];

/** What a signed-out visitor sees at /. */
export function LandingPage() {
  return (
    <article>
      <PageHeader
        title="Master Circuit Breaker Patterns"
        description="Learn how circuit breakers keep distributed systems resilient, then configure, load-test and monitor your own."
      />
      <Actions>
        <ButtonLink href="/api/login">Get Started</ButtonLink>
        <ButtonLink href="/api/login" $variant="outline">
          Login
        </ButtonLink>
        <ButtonLink href="#start-building" $variant="ghost">
          View Demo
        </ButtonLink>
      </Actions>
      <Card id="start-building" aria-label="Start Building Today">
        <h2 style={{ marginTop: 0 }}>Start Building Today</h2>
        <Muted>Sign in to configure simple, adaptive and bulkhead breakers, run load tests through them and watch their state live.</Muted>
        <div style={{ marginTop: 12 }}>
          <ButtonLink href="/api/login">Start Building Today</ButtonLink>
        </div>
      </Card>
      <Footer>
        <div>
          <h2>Circuit Breaker Hub</h2>
          <Muted>An interactive hub for learning and operating circuit-breaker resilience patterns.</Muted>
          <Muted style={{ marginTop: 8 }}>Built for educational purposes.</Muted>
          <Muted>A school project.</Muted>
        </div>
        <nav aria-label="Resources">
          <h2>Resources</h2>
          <ul>
            {RESOURCES.map((name) => (
              <li key={name}>
                <a href="#">{name}</a>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-label="Community">
          <h2>Community</h2>
          <ul>
            {COMMUNITY.map((name) => (
              <li key={name}>
                <a href="#">{name}</a>
              </li>
            ))}
          </ul>
        </nav>
      </Footer>
    </article>
  );
}
