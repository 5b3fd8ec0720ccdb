import styled from 'styled-components';
import { alertGroupPath, type AlertGroupView, type AuthUser } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Muted, ResponsiveTable, When, type TableColumn } from '@cbh/ui';
import { canActOn } from './alert-group-text';
import { AlertGroupStateBadge } from './AlertGroupStateBadge';
import { InlineGroupActions } from './AlertGroupActions';
import { SubjectName } from './SubjectName';

// a finger's target (WCAG 2.5.8) over 24 px tall by its padding, taken back by a margin: its words stay level with the
// row's other cells rather than at the top of a taller box
const TitleLink = styled(Link)`
  display: inline-block;
  padding: 4px 0;
  margin: -4px 0;
  font-weight: 600;
  overflow-wrap: anywhere;
`;

const Small = styled(Muted)`
  font-size: 12px;
`;

// a cell's two lines as one element: on a phone the cell is a grid of its label and one value
const Lines = styled.span`
  display: grid;
  justify-items: start;
  gap: 2px;
`;

const dash = <Muted as="span">—</Muted>;

/** The state's words, and how long a silence lasts. */
function StateCell({ group }: { group: AlertGroupView }) {
  return (
    <Lines>
      <AlertGroupStateBadge state={group.state} />
      {group.state === 'silenced' && group.silencedUntil ? (
        <Small as="span">
          until <When at={group.silencedUntil} />
        </Small>
      ) : null}
    </Lines>
  );
}

/**
 * The columns, the lesser ones giving way as the table narrows (a card per group on a phone). An open group's list
 * says when the next step pages someone; a resolved one's says when and by whom it was resolved.
 */
function columnsOf(user: AuthUser, resolved: boolean): TableColumn<AlertGroupView>[] {
  const columns: TableColumn<AlertGroupView>[] = [
    { header: 'Alert group', cell: (group) => <TitleLink to={alertGroupPath(group.id)}>{group.title}</TitleLink> },
    { header: 'State', cell: (group) => <StateCell group={group} /> },
    { header: 'Subject', cell: (group) => <SubjectName subject={group.subject} user={user} /> },
    { header: 'Service', cell: (group) => group.service ?? dash, priority: 3 },
    { header: 'Opened', cell: (group) => <When at={group.openedAt} />, nowrap: true, priority: 2 },
  ];
  if (resolved) {
    columns.push({
      header: 'Resolved',
      cell: (group) => (
        <Lines>
          <When at={group.resolvedAt} never="—" />
          {group.resolvedBy ? <Small as="span">by {group.resolvedBy}</Small> : null}
        </Lines>
      ),
      priority: 2,
    });
  } else {
    columns.push({
      header: 'Next step',
      cell: (group) =>
        group.nextStep ? (
          <span>
            Step {group.nextStep.step} <When at={group.nextStep.at} />
          </span>
        ) : (
          dash
        ),
      priority: 2,
    });
  }
  return columns;
}

/**
 * Alert groups as a table: each title opens the group's page, its subject links to the subject's page, and a holder of
 * circuit_breaker_operate acknowledges or resolves an open one from its row (nobody else sees the buttons).
 */
export function AlertGroupTable({
  label,
  groups,
  user,
  resolved = false,
  empty,
}: {
  label: string;
  groups: readonly AlertGroupView[];
  user: AuthUser;
  /** the resolved groups' columns rather than the open ones' */
  resolved?: boolean;
  empty: string;
}) {
  const acts = groups.some((group) => group.state !== 'resolved' && canActOn(user, group));
  return (
    <ResponsiveTable
      label={label}
      rows={groups}
      rowKey={(group) => String(group.id)}
      rowTestId={(group) => `alert-group-row-${group.id}`}
      columns={columnsOf(user, resolved)}
      inline={acts ? (group) => (canActOn(user, group) ? <InlineGroupActions group={group} /> : null) : undefined}
      empty={empty}
    />
  );
}
