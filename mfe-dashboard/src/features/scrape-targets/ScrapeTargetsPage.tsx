import styled from 'styled-components';
import { useDeleteScrapeTargetMutation, useGetScrapeTargetsQuery } from '@cbh/api-client';
import { ROUTES } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { plural, theme } from '@cbh/ui';
import { AdminPage } from '../shared/admin-page';
import { POLL_MS } from '../shared/section-parts';
import { RecordsSection } from '../shared/records-section';
import { ScrapeTargetDialog } from './lazy-dialogs';
import { ScrapeTargetRow } from './ScrapeTargetRow';

const TITLE = ROUTES.scrapeTargets.title;
const DESCRIPTION =
  'Prometheus endpoints of services whose breakers are resilience4j’s: the hub reads their metrics and shows their breakers on the wall, read-only.';
export const NO_ACCESS_TEXT = 'You need the circuit_breaker_admin permission to manage scrape targets.';

const COLUMNS = ['Name', 'URL', 'Interval', 'Token', 'Last scrape', 'Breakers', 'Actions'];

const BackLink = styled(Link)`
  font-size: 14px;
  color: ${theme.colors.primary};
`;

/** The targets, each with how its last scrape went (read again every few seconds), and Add, Edit and Delete. */
function ScrapeTargetsSection() {
  const targets = useGetScrapeTargetsQuery(undefined, { pollingInterval: POLL_MS, skipPollingIfUnfocused: true });
  const [remove] = useDeleteScrapeTargetMutation();

  return (
    <RecordsSection
      id="scrape-targets-title"
      title="Targets"
      description="One API replica reads each target when it is due; what it finds replaces what the last good scrape found."
      addLabel="Add target"
      query={targets}
      what="scrape targets"
      empty="No scrape targets yet. Add a service’s Prometheus endpoint to see its resilience4j breakers on the wall."
      table={{ label: 'Scrape targets', minWidth: 900, columns: COLUMNS }}
      row={(target, editing) => (
        <ScrapeTargetRow target={target} onEdit={() => editing.edit(target)} onDelete={() => editing.delete(target)} />
      )}
      dialog={(target, close) => <ScrapeTargetDialog target={target} onClose={close} />}
      deletion={{
        what: 'scrape target',
        consequence: (target) =>
          `It is no longer read, and ${
            target.breakers ? `its ${plural(target.breakers, 'breaker')} leave` : 'any breakers it brought leave'
          } the wall with their journals.`,
        remove: (target) => remove(target.id).unwrap(),
      }}
    />
  );
}

/** /scrape-targets: the Prometheus endpoints the hub scrapes for breakers, for holders of circuit_breaker_admin. */
export function ScrapeTargetsPage() {
  return (
    <AdminPage
      title={TITLE}
      description={DESCRIPTION}
      what="scrape targets"
      noAccessText={NO_ACCESS_TEXT}
      gap={12}
      top={
        <div>
          <BackLink to={ROUTES.breakers.path}>← All circuit breakers</BackLink>
        </div>
      }
    >
      {() => <ScrapeTargetsSection />}
    </AdminPage>
  );
}
