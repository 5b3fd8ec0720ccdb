import type { ReactNode } from 'react';
import styled from 'styled-components';
import { useGetAuthUserQuery } from '@cbh/api-client';
import { hasPermission, type AuthUser } from '@cbh/contracts';
import { AccessRestricted, ButtonLink, Card, Muted, PageHeader } from '@cbh/ui';

// min-width 0 lets the tables inside scroll sideways instead of widening the page on a narrow screen
const Column = styled.div<{ $gap: number }>`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: ${({ $gap }) => $gap}px;
  min-width: 0;
  max-width: 100%;
`;

/**
 * A page for holders of circuit_breaker_admin (notifications, scrape targets): while the account is read it says so,
 * signed out it offers Login, without the permission it says which is needed; only then are its cards drawn, so
 * their reads start only for an account that may make them.
 */
export function AdminPage({
  title,
  description,
  what,
  noAccessText,
  gap,
  top,
  actions,
  children,
}: {
  title: string;
  /** Shown under the title once signed in. */
  description: string;
  /** What the page manages, as 'Sign in to manage …' names it. */
  what: string;
  noAccessText: string;
  /** The room between the page's cards, in px. */
  gap: number;
  /** What stands above the title (a link back). */
  top?: ReactNode;
  /** Beside the title once the account may use the page (a link to a related page it may open). */
  actions?: (user: AuthUser) => ReactNode;
  children: (user: AuthUser) => ReactNode;
}) {
  const { data: user, isLoading } = useGetAuthUserQuery();
  return (
    <Column $gap={gap}>
      {top}
      <PageHeader title={title} description={user ? description : undefined}>
        {user && actions && hasPermission(user, 'circuit_breaker_admin') ? actions(user) : null}
      </PageHeader>
      {isLoading ? (
        <Muted role="status">Loading…</Muted>
      ) : !user ? (
        <Card>
          <Muted>{`Sign in to manage ${what}.`}</Muted>
          <p>
            <ButtonLink href="/api/login">Login</ButtonLink>
          </p>
        </Card>
      ) : !hasPermission(user, 'circuit_breaker_admin') ? (
        <AccessRestricted message={noAccessText} />
      ) : (
        children(user)
      )}
    </Column>
  );
}
