import styled from 'styled-components';
import { apiErrorMessage, useGetReleasesQuery } from '@cbh/api-client';
import { ROUTES } from '@cbh/contracts';
import { Card, Muted, SectionTitle, theme } from '@cbh/ui';
import { RemoteRelease } from './RemoteRelease';
import { usePreviews } from './use-previews';

/** Loads are reported by every open page and a failing canary rolls back by itself: the card reads them again this often. */
const POLL_MS = 30_000;

const Body = styled.div`
  display: grid;
  gap: 16px;
  min-width: 0;
`;

const Note = styled.div`
  padding: 12px 14px;
  border-left: 3px solid ${theme.colors.primary};
  border-radius: 4px;
  background: ${theme.colors.background};
  font-size: 14px;
  p {
    margin: 0;
  }
  code {
    overflow-wrap: anywhere;
  }
`;

/**
 * Releases (system_admin): for each remote, the uploaded versions with how their loads went, and promote, canary,
 * rollback and a preview in this browser alone.
 */
export function ReleasesCard() {
  const releases = useGetReleasesQuery(undefined, { pollingInterval: POLL_MS, skipPollingIfUnfocused: true });
  const [previews, pinned] = usePreviews();
  const headingId = 'releases-title';

  return (
    <Card aria-labelledby={headingId}>
      <SectionTitle id={headingId}>Releases</SectionTitle>
      <Body>
        <Muted>
          Each remote’s uploaded builds. A version goes live for everyone with Promote, or first to a share of visitors as a canary;
          Rollback puts back what was live before.
        </Muted>
        <Note role="note">
          <p>
            Rollback works without this screen too: <code>npx cbh release rollback &lt;remote&gt;</code> (with CBH_URL and a system_admin’s
            CBH_TOKEN) or <code>POST /api/releases/&lt;remote&gt;/rollback</code>. A remote that fails to load can always be rolled back
            that way, even {ROUTES.users.remote}, which draws this screen.
          </p>
        </Note>
        {releases.isError ? (
          // an error first: RTK Query keeps the last list when a refetch fails, and it would be shown as current
          <Muted role="alert">The releases could not be loaded. {apiErrorMessage(releases.error) ?? ''}</Muted>
        ) : !releases.data ? (
          <Muted role="status">Loading releases…</Muted>
        ) : (
          releases.data.map((release) => (
            <RemoteRelease key={release.remote} release={release} preview={previews[release.remote]} onPinned={pinned} />
          ))
        )}
      </Body>
    </Card>
  );
}
