import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Muted, PageHeader } from './Card';

// min-width 0 lets the tables inside scroll sideways instead of widening the page on a narrow screen
const Page = styled.div`
  min-width: 0;
  max-width: 100%;
`;

/**
 * A page only some accounts may see: while the account is read it says so, without it or its permission it shows
 * `restricted` under the bare title; only then are the description, the header's `actions` and the content drawn,
 * so the content's reads start only for an account that may make them.
 */
export function PermittedPage<User>({
  title,
  description,
  actions,
  user,
  loading,
  allows,
  restricted,
  children,
}: {
  title: string;
  description: string;
  actions?: ReactNode;
  user: User | null | undefined;
  loading: boolean;
  allows: (user: User) => boolean;
  restricted: ReactNode;
  children: (user: User) => ReactNode;
}) {
  if (loading || !user || !allows(user)) {
    return (
      <Page>
        <PageHeader title={title} />
        {loading ? <Muted role="status">Loading…</Muted> : restricted}
      </Page>
    );
  }
  return (
    <Page>
      <PageHeader title={title} description={description}>
        {actions}
      </PageHeader>
      {children(user)}
    </Page>
  );
}
