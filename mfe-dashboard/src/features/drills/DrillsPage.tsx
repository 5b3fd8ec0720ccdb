import { lazy, Suspense, useState } from 'react';
import { useGetDrillsQuery } from '@cbh/api-client';
import { ROUTES } from '@cbh/contracts';
import { Button, Card, Muted } from '@cbh/ui';
import { AdminPage } from '../shared/admin-page';
import { LoadedList } from '../shared/section-parts';
import { DRILLS_ACCESS } from './drill-access';
import { DrillTable } from './DrillTable';
import { KillSwitch } from './KillSwitch';
import { SavedDrills } from './SavedDrills';

// the composer and its dialogs, fetched with the first New drill: most visits read the drills or stop one
const NewDrill = lazy(() => import('./NewDrill').then((module) => ({ default: module.NewDrill })));

const DESCRIPTION =
  'Faults injected into chosen breakers’ calls for a bounded time — latency, errors, timeouts — to check that the breakers react as expected. A drill hurts real traffic while it runs.';
export const EMPTY_TEXT = 'No drills yet. Start one to see whether your breakers open when a dependency slows down or fails.';

function DrillList() {
  // no polling: a live drillChanged reads the list again
  const drills = useGetDrillsQuery();
  const running = drills.data?.filter((drill) => drill.state === 'running') ?? [];
  return (
    <>
      {running.length > 0 ? <KillSwitch running={running} /> : null}
      <Card>
        <LoadedList query={drills} what="drills">
          {(list) => (list.length === 0 ? <Muted>{EMPTY_TEXT}</Muted> : <DrillTable drills={list} />)}
        </LoadedList>
      </Card>
      <SavedDrills />
    </>
  );
}

/** /drills: the drills, newest first, the kill switch while any runs, and New drill; for holders of circuit_breaker_admin. */
export function DrillsPage() {
  const [composing, setComposing] = useState(false);
  return (
    <>
      <AdminPage
        title={ROUTES.drills.title}
        description={DESCRIPTION}
        {...DRILLS_ACCESS}
        gap={20}
        actions={() => <Button onClick={() => setComposing(true)}>New drill</Button>}
      >
        {() => <DrillList />}
      </AdminPage>
      <Suspense fallback={null}>{composing ? <NewDrill onClose={() => setComposing(false)} /> : null}</Suspense>
    </>
  );
}
