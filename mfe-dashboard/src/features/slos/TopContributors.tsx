import { breakerPath, canOpen, ROUTES, type AuthUser, type SloDetailView } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Card, DataTable, SectionTitle } from '@cbh/ui';
import { percentText } from './slo-text';

type Contributor = SloDetailView['topContributors'][number];

const KIND_WORDS: Record<Contributor['kind'], string> = { breaker: 'Breaker', instance: 'Instance', domain: 'Domain', version: 'Version' };

/** A contributor's name, a link to its page where it has one the account may open (domains have one page for all). */
function ContributorName({ contributor, user }: { contributor: Contributor; user: AuthUser }) {
  if (contributor.kind === 'breaker') return <Link to={breakerPath(Number(contributor.id))}>{contributor.name}</Link>;
  if (contributor.kind === 'domain' && canOpen(user, ROUTES.domains)) return <Link to={ROUTES.domains.path}>{contributor.name}</Link>;
  return <>{contributor.name}</>;
}

/** Who spent the budget: the breakers, instances, domains or versions with the most bad events over the window. */
export function TopContributors({ slo, user }: { slo: SloDetailView; user: AuthUser }) {
  return (
    <Card aria-labelledby="contributors-title">
      <SectionTitle id="contributors-title">Top contributors</SectionTitle>
      <DataTable
        label="Contributors by bad events"
        minWidth={480}
        columns={['Name', 'Kind', 'Bad events', 'All events', 'Bad share']}
        empty="No bad events over the window: nothing has spent the budget."
      >
        {slo.topContributors.map((contributor) => (
          <tr key={`${contributor.kind}:${contributor.id}`} data-testid={`contributor-${contributor.kind}-${contributor.id}`}>
            <td>
              <ContributorName contributor={contributor} user={user} />
            </td>
            <td>{KIND_WORDS[contributor.kind]}</td>
            <td>{contributor.bad.toLocaleString('en')}</td>
            <td>{contributor.total.toLocaleString('en')}</td>
            <td>{contributor.total > 0 ? percentText((100 * contributor.bad) / contributor.total) : '—'}</td>
          </tr>
        ))}
      </DataTable>
    </Card>
  );
}
