import { lazy, Suspense, useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useGetStatusPagesQuery } from '@cbh/api-client';
import { publicStatusPath, ROUTES, statusPagePath, type StatusPageView } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Badge, Button, Card, Muted, ResponsiveTable, SectionTitle, theme, VisuallyHidden, type TableColumn } from '@cbh/ui';
import { AdminOnly } from './access';
import { ComponentStateBadge } from './StateBadge';

/** The pages' states change with their breakers and domains: read again this often while the list is open. */
const REFRESH_MS = 10_000;

// the form and the overlays entry it draws on come with the first time it is opened, not with the list
const NewStatusPageDialog = lazy(() => import('./NewStatusPageDialog').then((module) => ({ default: module.NewStatusPageDialog })));

const DESCRIPTION = 'What the people who depend on your services see: components driven by live breakers and domain checks, and incidents.';

const Empty = styled(Card)`
  display: grid;
  justify-items: start;
  gap: 12px;
  max-width: 760px;
  h2 {
    margin: 0;
  }
`;

const PublicLink = styled.a`
  color: ${theme.colors.primary};
  overflow-wrap: anywhere;
`;

const COLUMNS: TableColumn<StatusPageView>[] = [
  { header: 'Title', cell: (page) => <Link to={statusPagePath(page.id)}>{page.title}</Link> },
  { header: 'Slug', cell: (page) => <code>{page.slug}</code>, priority: 3 },
  {
    header: 'Visibility',
    cell: (page) => <Badge $color={page.public ? theme.colors.success : theme.colors.grey}>{page.public ? 'Public' : 'Private'}</Badge>,
    nowrap: true,
  },
  { header: 'State', cell: (page) => <ComponentStateBadge state={page.state} />, nowrap: true },
  { header: 'Components', cell: (page) => page.components.length, priority: 2 },
  {
    header: 'Public page',
    cell: (page) => (
      <PublicLink href={publicStatusPath(page.slug)} target="_blank" rel="noopener">
        {publicStatusPath(page.slug)}
        <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
      </PublicLink>
    ),
    priority: 2,
  },
];

function StatusPageList({ onNew }: { onNew: () => void }) {
  const pages = useGetStatusPagesQuery(undefined, { pollingInterval: REFRESH_MS, skipPollingIfUnfocused: true });
  if (pages.isError) return <Muted role="alert">The status pages could not be loaded. {apiErrorMessage(pages.error) ?? ''}</Muted>;
  if (!pages.data) return <Muted role="status">Loading status pages…</Muted>;
  if (pages.data.length === 0)
    return (
      <Empty aria-labelledby="no-status-pages">
        <SectionTitle id="no-status-pages">No status pages yet</SectionTitle>
        <Muted>
          A status page tells the people who depend on a service whether it works, without asking you. Its components follow the breakers
          and domains you pick (a component is down when they are), you post incidents on it in plain words, and people can subscribe to
          hear of them.
        </Muted>
        <Button onClick={onNew}>New status page</Button>
      </Empty>
    );
  return (
    <Card>
      <ResponsiveTable label="Status pages" rows={pages.data} rowKey={(page) => String(page.id)} columns={COLUMNS} />
    </Card>
  );
}

/** /status-pages: every status page with its state, and New status page. */
export function StatusPagesPage() {
  const [creating, setCreating] = useState(false);
  return (
    <AdminOnly
      title={ROUTES.statusPages.title}
      description={DESCRIPTION}
      actions={<Button onClick={() => setCreating(true)}>New status page</Button>}
    >
      {() => (
        <>
          <StatusPageList onNew={() => setCreating(true)} />
          <Suspense fallback={null}>{creating ? <NewStatusPageDialog onClose={() => setCreating(false)} /> : null}</Suspense>
        </>
      )}
    </AdminOnly>
  );
}
