import { useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useGetBreakerDependenciesQuery } from '@cbh/api-client';
import {
  alertGroupPath,
  breakerPath,
  canOpen,
  hasPermission,
  ROUTES,
  type AuthUser,
  type BreakerConfigView,
  type BreakerDependenciesView,
  type DependencyKind,
} from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Button, Card, Muted, SectionTitle, SpreadRow, theme, VisuallyHidden } from '@cbh/ui';
import { DependenciesDialog, OnceOpened } from './lazy-dialogs';

const KIND_WORDS: Record<DependencyKind, string> = { domain: 'Domain', breaker: 'Breaker', service: 'Service' };

const List = styled.ul`
  list-style: none;
  margin: 12px 0 0;
  padding: 0;
  display: grid;
  gap: 6px;
  font-size: 14px;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 8px;
    overflow-wrap: anywhere;
  }
`;

const Kind = styled.span`
  min-width: 56px;
  font-size: 12px;
  color: ${theme.colors.muted};
`;

const Quieted = styled.p`
  margin: 12px 0 0;
  padding: 8px 12px;
  border-left: 4px solid ${theme.colors.yellow};
  background: ${theme.colors.background};
  font-size: 14px;
  overflow-wrap: anywhere;
`;

const Note = styled(Muted)`
  font-size: 13px;
`;

/** A parent's name, a link to its page where it has one the account may open (domains have one page for all). */
function ParentName({ parent, user }: { parent: BreakerDependenciesView['dependsOn'][number]; user: AuthUser }) {
  if (parent.kind === 'breaker' && parent.id !== null) return <Link to={breakerPath(parent.id)}>{parent.name}</Link>;
  if (parent.kind === 'domain' && canOpen(user, ROUTES.domains)) return <Link to={ROUTES.domains.path}>{parent.name}</Link>;
  return <span>{parent.name}</span>;
}

function Parents({ view, user }: { view: BreakerDependenciesView; user: AuthUser }) {
  return (
    <>
      {view.dependsOn.length === 0 ? (
        <Note>Nothing: its events open alert groups of their own.</Note>
      ) : (
        <List aria-label="What it depends on">
          {view.dependsOn.map((parent) => (
            <li key={`${parent.kind}:${parent.id ?? parent.name}`}>
              <Kind>{KIND_WORDS[parent.kind]}</Kind>
              <ParentName parent={parent} user={user} />
            </li>
          ))}
        </List>
      )}
      {view.quietedBy ? (
        <Quieted role="note">
          Its events join{' '}
          <Link to={alertGroupPath(view.quietedBy.groupId)}>
            alert group {view.quietedBy.groupId}: {view.quietedBy.title}
          </Link>
        </Quieted>
      ) : null}
    </>
  );
}

/**
 * What the breaker depends on (domains, other breakers, services): while one of them has an alert group open, this
 * breaker's events join it rather than paging someone a second time for the same outage. Holders of
 * circuit_breaker_admin edit the list; the dialog's code comes with its first opening. A live alertGroupChanged reads
 * the card again, so the quieting line comes and goes by itself.
 */
export function DependsOnCard({ breaker, user }: { breaker: BreakerConfigView; user: AuthUser }) {
  const dependencies = useGetBreakerDependenciesQuery(breaker.id);
  const [editing, setEditing] = useState(false);
  const canEdit = hasPermission(user, 'circuit_breaker_admin');
  return (
    <Card aria-labelledby="depends-on-title">
      <SpreadRow $below={4}>
        <SectionTitle id="depends-on-title">Depends on</SectionTitle>
        {canEdit && dependencies.data ? (
          <Button $variant="outline" onClick={() => setEditing(true)}>
            Edit<VisuallyHidden> dependencies</VisuallyHidden>
          </Button>
        ) : null}
      </SpreadRow>
      {dependencies.isError ? (
        <Muted role="alert">What it depends on could not be loaded. {apiErrorMessage(dependencies.error) ?? ''}</Muted>
      ) : !dependencies.data ? (
        <Muted role="status">Loading…</Muted>
      ) : (
        <Parents view={dependencies.data} user={user} />
      )}
      <OnceOpened open={editing}>
        {editing && dependencies.data ? (
          <DependenciesDialog
            breaker={breaker}
            current={dependencies.data}
            domainAccess={hasPermission(user, 'domain_management')}
            onClose={() => setEditing(false)}
          />
        ) : null}
      </OnceOpened>
    </Card>
  );
}
