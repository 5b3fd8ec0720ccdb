import { breakerPath, canOpen, ROUTES, type AuthUser, type SloDetailView } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Card, formatCount, ResponsiveTable, SectionTitle, type TableColumn } from '@cbh/ui';
import { percentText } from './slo-text';

type Contributor = SloDetailView['topContributors'][number];

const KIND_WORDS: Record<Contributor['kind'], string> = { breaker: 'Breaker', instance: 'Instance', domain: 'Domain', version: 'Version' };

/** A contributor's name, a link to its page where it has one the account may open (domains have one page for all). */
function ContributorName({ contributor, user }: { contributor: Contributor; user: AuthUser }) {
  if (contributor.kind === 'breaker') return <Link to={breakerPath(Number(contributor.id))}>{contributor.name}</Link>;
  if (contributor.kind === 'domain' && canOpen(user, ROUTES.domains)) return <Link to={ROUTES.domains.path}>{contributor.name}</Link>;
  return <>{contributor.name}</>;
}

function columnsOf(user: AuthUser): TableColumn<Contributor>[] {
  return [
    { header: 'Name', cell: (contributor) => <ContributorName contributor={contributor} user={user} /> },
    { header: 'Kind', cell: (contributor) => KIND_WORDS[contributor.kind] },
    { header: 'Bad events', cell: (contributor) => formatCount(contributor.bad), nowrap: true },
    { header: 'All events', cell: (contributor) => formatCount(contributor.total), nowrap: true, priority: 2 },
    {
      header: 'Bad share',
      cell: (contributor) => (contributor.total > 0 ? percentText((100 * contributor.bad) / contributor.total) : '—'),
      nowrap: true,
    },
  ];
}

/** Who spent the budget: the breakers, instances, domains or versions with the most bad events over the window. */
export function TopContributors({ slo, user }: { slo: SloDetailView; user: AuthUser }) {
  return (
    <Card aria-labelledby="contributors-title">
      <SectionTitle id="contributors-title">Top contributors</SectionTitle>
      <ResponsiveTable
        label="Contributors by bad events"
        rows={slo.topContributors}
        rowKey={(contributor) => `${contributor.kind}:${contributor.id}`}
        rowTestId={(contributor) => `contributor-${contributor.kind}-${contributor.id}`}
        columns={columnsOf(user)}
        empty="No bad events over the window: nothing has spent the budget."
      />
    </Card>
  );
}
