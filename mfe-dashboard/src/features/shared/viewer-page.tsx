import type { ReactNode } from 'react';
import { useGetAuthUserQuery } from '@cbh/api-client';
import { hasPermission, type AuthUser } from '@cbh/contracts';
import { AccessRestricted, ButtonLink, Card, Muted, PermittedPage } from '@cbh/ui';

/** What a viewer's page says to someone who may not read it: signed out, and without circuit_breaker_view. */
export interface ViewerTexts {
  /** 'Sign in to see …' */
  signIn: string;
  /** 'You need the circuit_breaker_view permission to see …' */
  noAccess: string;
}

/** Signed out: Login; without circuit_breaker_view: which permission is needed. */
function Restricted({ signedIn, texts }: { signedIn: boolean; texts: ViewerTexts }) {
  if (signedIn) return <AccessRestricted message={texts.noAccess} />;
  return (
    <Card>
      <Muted>{texts.signIn}</Muted>
      <p>
        <ButtonLink href="/api/login">Login</ButtonLink>
      </p>
    </Card>
  );
}

/**
 * A page for holders of circuit_breaker_view (on call, SLOs), as the API asks to read what it shows. Its content (and
 * the reads it makes) is drawn only for an account that may make them.
 */
export function ViewerPage({
  title,
  description,
  texts,
  actions,
  children,
}: {
  title: string;
  description: string;
  texts: ViewerTexts;
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
      restricted={<Restricted signedIn={Boolean(user)} texts={texts} />}
    >
      {children}
    </PermittedPage>
  );
}
