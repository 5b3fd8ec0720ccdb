import type { ReactNode } from 'react';
import { useGetAuthUserQuery } from '@cbh/api-client';
import { hasPermission, type AuthUser } from '@cbh/contracts';
import { AccessRestricted, ButtonLink, Card, Muted, PermittedPage } from '@cbh/ui';

export const NO_ACCESS_TEXT = 'You need the circuit_breaker_view permission to see alert groups.';

/** Signed out: Login; without circuit_breaker_view: which permission is needed. */
function Restricted({ signedIn }: { signedIn: boolean }) {
  if (signedIn) return <AccessRestricted message={NO_ACCESS_TEXT} />;
  return (
    <Card>
      <Muted>Sign in to see alert groups and who is on call.</Muted>
      <p>
        <ButtonLink href="/api/login">Login</ButtonLink>
      </p>
    </Card>
  );
}

/**
 * A page of the on-call screens: for holders of circuit_breaker_view, as the API asks to read alert groups. Its
 * content (and the reads it makes) is drawn only for an account that may make them.
 */
export function OnCallOnly({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description: string;
  actions?: ReactNode;
  children: (user: AuthUser) => ReactNode;
}) {
  const { data: user, isLoading } = useGetAuthUserQuery();
  return (
    <PermittedPage
      title={title}
      description={description}
      actions={actions}
      user={user}
      loading={isLoading}
      allows={(account) => hasPermission(account, 'circuit_breaker_view')}
      restricted={<Restricted signedIn={Boolean(user)} />}
    >
      {children}
    </PermittedPage>
  );
}
