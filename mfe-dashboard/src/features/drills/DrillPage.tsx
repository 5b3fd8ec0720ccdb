import { apiErrorMessage, skipToken, useGetAuthUserQuery, useGetDrillQuery } from '@cbh/api-client';
import { hasPermission, ROUTES, type DrillDetailView } from '@cbh/contracts';
import { useParams } from '@cbh/router';
import { BackLink, DetailPage, formatDateTime, Muted } from '@cbh/ui';
import { AdminPage } from '../shared/admin-page';
import { DetailStack } from '../shared/detail-parts';
import { NotFoundCard } from '../shared/not-found-card';
import { NowProvider } from '../shared/now-clock';
import { recordIdFrom } from '../shared/record-id';
import { DRILLS_ACCESS } from './drill-access';
import { DrillBreakers } from './DrillBreakers';
import { DrillExpectations } from './DrillExpectations';
import { DrillSteps } from './DrillSteps';
import { DrillSummary } from './DrillSummary';
import { DrillTimeline } from './DrillTimeline';
import { StopDrill } from './StopDrill';

const NOT_FOUND = {
  title: 'Drill not found',
  text: 'There is no drill at this address.',
  back: { to: ROUTES.drills.path, label: 'See all drills' },
};

function DrillDetail({ drill }: { drill: DrillDetailView }) {
  return (
    // one clock for the countdowns and the tiles' 'changed … ago'
    <NowProvider>
      <DetailStack>
        <DrillSummary drill={drill} />
        <DrillBreakers drill={drill} />
        <DrillSteps drill={drill} />
        <DrillExpectations expectations={drill.expectations} />
        <DrillTimeline entries={drill.timeline} />
      </DetailStack>
    </NowProvider>
  );
}

const descriptionOf = (drill: DrillDetailView) =>
  `Started ${formatDateTime(drill.startedAt)} by ${drill.startedBy ?? 'a removed account'}: ${drill.steps.length} step${drill.steps.length === 1 ? '' : 's'}, ${drill.expectations.length} expectation${drill.expectations.length === 1 ? '' : 's'}.`;

/**
 * /drills/:id: one drill, live while it runs (a drillChanged reads it again; its breakers' tiles move with the live
 * figures) with its Stop, and its report once it ended: steps, expectations met or missed, and the timeline.
 */
export function DrillPage() {
  const id = recordIdFrom(useParams().id);
  const { data: user } = useGetAuthUserQuery();
  const allowed = hasPermission(user, 'circuit_breaker_admin');
  const drill = useGetDrillQuery(allowed && id !== null ? id : skipToken);
  const missing = id === null || (drill.isError && (drill.error as { status?: unknown }).status === 404);
  const shown = missing ? undefined : drill.data;

  return (
    <DetailPage>
      <AdminPage
        top={<BackLink to={ROUTES.drills.path}>← All drills</BackLink>}
        title={shown?.name ?? ROUTES.drill.title}
        description={shown ? descriptionOf(shown) : ''}
        {...DRILLS_ACCESS}
        gap={20}
        actions={() => (shown?.state === 'running' ? <StopDrill drill={shown} /> : null)}
      >
        {() =>
          missing ? (
            <NotFoundCard {...NOT_FOUND} />
          ) : shown ? (
            <DrillDetail drill={shown} />
          ) : drill.isError ? (
            <Muted role="alert">The drill could not be loaded. {apiErrorMessage(drill.error) ?? ''}</Muted>
          ) : (
            <Muted role="status">Loading the drill…</Muted>
          )
        }
      </AdminPage>
    </DetailPage>
  );
}
