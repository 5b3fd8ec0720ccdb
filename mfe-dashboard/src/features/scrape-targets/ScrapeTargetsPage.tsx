import { Suspense, useState } from 'react';
import styled from 'styled-components';
import { useDeleteScrapeTargetMutation, useGetAuthUserQuery, useGetScrapeTargetsQuery } from '@cbh/api-client';
import { hasPermission, ROUTES, type ScrapeTargetView } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { AccessRestricted, Button, ButtonLink, Card, DataTable, Muted, PageHeader, plural, theme } from '@cbh/ui';
import { LoadedList, POLL_MS, Section } from '../shared/section-parts';
import { ConfirmDelete, ScrapeTargetDialog } from './lazy-dialogs';
import { ScrapeTargetRow } from './ScrapeTargetRow';

const TITLE = ROUTES.scrapeTargets.title;
const DESCRIPTION =
  'Prometheus endpoints of services whose breakers are resilience4j’s: the hub reads their metrics and shows their breakers on the wall, read-only.';
export const NO_ACCESS_TEXT = 'You need the circuit_breaker_admin permission to manage scrape targets.';

const COLUMNS = ['Name', 'URL', 'Interval', 'Token', 'Last scrape', 'Breakers', 'Actions'];

// min-width 0 lets the table inside scroll sideways instead of widening the page on a narrow screen
const Page = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 12px;
  min-width: 0;
  max-width: 100%;
`;
const BackLink = styled(Link)`
  font-size: 14px;
  color: ${theme.colors.primary};
`;

type Editing = { kind: 'add' } | { kind: 'edit' | 'delete'; target: ScrapeTargetView } | null;

/** The targets, each with how its last scrape went (read again every few seconds), and Add, Edit and Delete. */
function ScrapeTargetsSection() {
  const targets = useGetScrapeTargetsQuery(undefined, { pollingInterval: POLL_MS, skipPollingIfUnfocused: true });
  const [remove] = useDeleteScrapeTargetMutation();
  const [editing, setEditing] = useState<Editing>(null);
  const close = () => setEditing(null);

  return (
    <Section
      id="scrape-targets-title"
      title="Targets"
      description="One API replica reads each target when it is due; what it finds replaces what the last good scrape found."
      action={<Button onClick={() => setEditing({ kind: 'add' })}>Add target</Button>}
    >
      <LoadedList query={targets} what="scrape targets">
        {(list) =>
          list.length === 0 ? (
            <Muted>No scrape targets yet. Add a service’s Prometheus endpoint to see its resilience4j breakers on the wall.</Muted>
          ) : (
            <DataTable label="Scrape targets" minWidth={900} columns={COLUMNS}>
              {list.map((target) => (
                <ScrapeTargetRow
                  key={target.id}
                  target={target}
                  onEdit={() => setEditing({ kind: 'edit', target })}
                  onDelete={() => setEditing({ kind: 'delete', target })}
                />
              ))}
            </DataTable>
          )
        }
      </LoadedList>
      <Suspense fallback={null}>
        {editing?.kind === 'add' ? <ScrapeTargetDialog onClose={close} /> : null}
        {editing?.kind === 'edit' ? <ScrapeTargetDialog key={editing.target.id} target={editing.target} onClose={close} /> : null}
        {editing?.kind === 'delete' ? (
          <ConfirmDelete
            what="scrape target"
            name={editing.target.name}
            consequence={`It is no longer read, and ${
              editing.target.breakers ? `its ${plural(editing.target.breakers, 'breaker')} leave` : 'any breakers it brought leave'
            } the wall with their journals.`}
            remove={() => remove(editing.target.id).unwrap()}
            onClose={close}
          />
        ) : null}
      </Suspense>
    </Section>
  );
}

/** /scrape-targets: the Prometheus endpoints the hub scrapes for breakers, for holders of circuit_breaker_admin. */
export function ScrapeTargetsPage() {
  const { data: user, isLoading } = useGetAuthUserQuery();
  return (
    <Page>
      <div>
        <BackLink to={ROUTES.breakers.path}>← All circuit breakers</BackLink>
      </div>
      <PageHeader title={TITLE} description={user ? DESCRIPTION : undefined} />
      {isLoading ? (
        <Muted role="status">Loading…</Muted>
      ) : !user ? (
        <Card>
          <Muted>Sign in to manage scrape targets.</Muted>
          <p>
            <ButtonLink href="/api/login">Login</ButtonLink>
          </p>
        </Card>
      ) : !hasPermission(user, 'circuit_breaker_admin') ? (
        <AccessRestricted message={NO_ACCESS_TEXT} />
      ) : (
        <ScrapeTargetsSection />
      )}
    </Page>
  );
}
