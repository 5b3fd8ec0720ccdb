import { Fragment, type ReactNode } from 'react';
import styled from 'styled-components';
import type { AlertGroupView, AuthUser } from '@cbh/contracts';
import { Card, plural, SectionTitle, When } from '@cbh/ui';
import { termsAndValues } from '../../shared/figure-styles';
import { AlertGroupStateBadge } from './AlertGroupStateBadge';
import { SubjectName } from './SubjectName';

// two columns of term and value; on a phone the value wraps inside its column rather than widening the page
const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr);
  gap: 8px 16px;
  margin: 0;
  font-size: 14px;
  overflow-wrap: anywhere;
  ${termsAndValues}
`;

/** A moment and who acted then: "5 minutes ago by ana@example.com". */
function ByWhom({ at, by }: { at: string; by: string | null }) {
  return (
    <>
      <When at={at} />
      {by ? ` by ${by}` : null}
    </>
  );
}

/** The facts of a group in the order someone paged reads them: what, where, since when, who is on it, what comes next. */
function factsOf(group: AlertGroupView, user: AuthUser): [string, ReactNode][] {
  const facts: [string, ReactNode][] = [
    ['State', <AlertGroupStateBadge key="state" state={group.state} />],
    ['Subject', <SubjectName key="subject" subject={group.subject} user={user} />],
    ['Service', group.service ?? 'None (the hub’s own, or not a breaker)'],
    ['Escalation policy', group.escalationPolicy?.name ?? 'None'],
    ['Opened', <When key="opened" at={group.openedAt} />],
    ['Acknowledged', group.acknowledgedAt ? <ByWhom at={group.acknowledgedAt} by={group.acknowledgedBy} /> : 'Not yet'],
  ];
  if (group.state === 'silenced' && group.silencedUntil) facts.push(['Silenced until', <When key="silenced" at={group.silencedUntil} />]);
  if (group.nextStep) {
    facts.push([
      'Next step',
      <Fragment key="next">
        Step {group.nextStep.step} <When at={group.nextStep.at} />
      </Fragment>,
    ]);
  }
  facts.push(['Resolved', group.resolvedAt ? <ByWhom at={group.resolvedAt} by={group.resolvedBy} /> : 'Not yet']);
  facts.push([
    'Events',
    group.causedCount > 0
      ? `${plural(group.eventCount, 'event')} of its own, ${plural(group.causedCount, 'event')} of subjects depending on it`
      : plural(group.eventCount, 'event'),
  ]);
  return facts;
}

/** What the group is about and where it stands. */
export function AlertGroupFacts({ group, user }: { group: AlertGroupView; user: AuthUser }) {
  return (
    <Card aria-labelledby="group-facts-title">
      <SectionTitle id="group-facts-title">Summary</SectionTitle>
      <Facts data-testid="alert-group-facts">
        {factsOf(group, user).map(([term, value]) => (
          <Fragment key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
      </Facts>
    </Card>
  );
}
