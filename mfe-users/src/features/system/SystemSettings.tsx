import { lazy, Suspense } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useGetRetentionQuery } from '@cbh/api-client';
import { RETENTION_SETTINGS } from '@cbh/contracts';
import { Card, Muted, SectionTitle } from '@cbh/ui';
import { LastPrune } from './LastPrune';
import { RetentionForm } from './RetentionForm';

// Fetched when the System tab first opens: only system administrators see it, so other visits to /users skip it.
const ReleasesCard = lazy(() => import('./ReleasesCard').then((module) => ({ default: module.ReleasesCard })));

/* one column as wide as the page: a column sized to its content would grow to a table's width on a phone */
const Stack = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 16px;
  min-width: 0;
`;

/** How long each kind of history is kept, and the prune that applies it. */
export function Retention() {
  const retention = useGetRetentionQuery();

  if (!retention.data) {
    return retention.isError ? (
      <Muted role="alert">The retention settings could not be loaded. {apiErrorMessage(retention.error) ?? ''}</Muted>
    ) : (
      <Muted role="status">Loading retention settings…</Muted>
    );
  }

  const saved = retention.data;
  return (
    <Stack>
      <Card>
        <SectionTitle>Data Retention</SectionTitle>
        <Muted>Once a day the oldest history goes: each kind is kept for the days set here.</Muted>
        {/* saved values start the form afresh, so a change saved here or elsewhere shows as saved */}
        <RetentionForm key={RETENTION_SETTINGS.map((setting) => saved[setting]).join()} saved={saved} />
      </Card>
      <Card>
        <SectionTitle>Pruning</SectionTitle>
        <LastPrune retention={saved} />
      </Card>
    </Stack>
  );
}

/** The System tab (system_admin): data retention, and the releases of the remotes. */
export function SystemSettings() {
  return (
    <Stack>
      <Retention />
      <Suspense fallback={<Muted role="status">Loading releases…</Muted>}>
        <ReleasesCard />
      </Suspense>
    </Stack>
  );
}
