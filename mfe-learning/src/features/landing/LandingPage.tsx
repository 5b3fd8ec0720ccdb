import styled from 'styled-components';
import { ButtonLink, Muted, PageHeader } from '@cbh/ui';

const Actions = styled.div`
  display: flex;
  gap: 12px;
  margin: 16px 0 32px;
`;

const Footer = styled.footer`
  margin-top: 48px;
  padding-top: 16px;
  border-top: 1px solid #e2e8f0;
`;

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
      </Actions>
      <Footer>
        <Muted>Built for educational purposes.</Muted>
      </Footer>
    </article>
  );
}
