import { Suspense, useState } from 'react';
import { SLO_POLL_MS, useGetAuthUserQuery, useGetSlosQuery } from '@cbh/api-client';
import { hasPermission, ROUTES } from '@cbh/contracts';
import { Button, Card, Muted } from '@cbh/ui';
import { LoadedList } from '../shared/section-parts';
import { SloDialog } from './lazy-dialogs';
import { SlosOnly } from './slo-access';
import { SloTable } from './SloTable';

const DESCRIPTION =
  'Each objective’s share of good events over its window against its target, the error budget that leaves, and how fast it burns.';
export const EMPTY_TEXT =
  'No SLOs yet. An SLO sets a target for the share of good breaker calls, domain checks or remote loads, and tracks the error budget it leaves.';

function SloList() {
  const slos = useGetSlosQuery(undefined, { pollingInterval: SLO_POLL_MS, skipPollingIfUnfocused: true });
  return (
    <Card>
      <LoadedList query={slos} what="SLOs">
        {(list) => (list.length === 0 ? <Muted>{EMPTY_TEXT}</Muted> : <SloTable slos={list} />)}
      </LoadedList>
    </Card>
  );
}

/** /slos: every SLO the account may read, sortable and by service, and New SLO for holders of circuit_breaker_admin. */
export function SlosPage() {
  const { data: user } = useGetAuthUserQuery();
  const [adding, setAdding] = useState(false);
  return (
    <>
      <SlosOnly
        title={ROUTES.slos.title}
        description={DESCRIPTION}
        actions={hasPermission(user, 'circuit_breaker_admin') ? <Button onClick={() => setAdding(true)}>New SLO</Button> : null}
      >
        {() => <SloList />}
      </SlosOnly>
      <Suspense fallback={null}>
        {adding ? <SloDialog domainAccess={hasPermission(user, 'domain_management')} onClose={() => setAdding(false)} /> : null}
      </Suspense>
    </>
  );
}
