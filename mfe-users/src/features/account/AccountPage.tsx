import styled from 'styled-components';
import { useGetAuthUserQuery } from '@cbh/api-client';
import { ButtonLink, Card, Muted, PageHeader } from '@cbh/ui';
import { ContactMethodsSection } from './ContactMethodsSection';
import { ProfileCard } from './ProfileCard';
import { SessionsSection } from './SessionsSection';
import { TokensSection } from './TokensSection';

const TITLE = 'Account';
const DESCRIPTION = 'Your profile, how escalations reach you, your access tokens and where you are signed in.';

// min-width 0 lets the tables inside scroll sideways instead of widening the page on a narrow screen
const Page = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 24px;
  min-width: 0;
  max-width: 100%;
`;

/** The signed-in person's own page, reached from their name in the top bar. */
export function AccountPage() {
  const { data: me, isLoading } = useGetAuthUserQuery();
  return (
    <Page>
      <PageHeader title={TITLE} description={me ? DESCRIPTION : undefined} />
      {isLoading ? (
        <Muted role="status">Loading…</Muted>
      ) : me ? (
        <>
          <ProfileCard me={me} />
          <ContactMethodsSection />
          <TokensSection me={me} />
          <SessionsSection />
        </>
      ) : (
        <Card>
          <Muted>Sign in to see your account.</Muted>
          <p>
            <ButtonLink href="/api/login">Login</ButtonLink>
          </p>
        </Card>
      )}
    </Page>
  );
}
