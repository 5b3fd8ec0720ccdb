/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, screen, waitFor, within } from '@testing-library/react';
import type { AuthUser, DrillView } from '@cbh/contracts';
import { breakerConfig, breakerStats, fakeApi } from '@cbh/test-support';
import { admin, liveConnectionForThisFile, renderWall, viewer } from './BreakerWallPage.test-kit';
import { drillMarks } from './drill-marks';

const BREAKERS = [breakerConfig({ id: 1, name: 'payments' }), breakerConfig({ id: 2, name: 'accounts' })];
const PAYMENTS = { id: 1, name: 'payments', service: null };
const step = {
  breaker: PAYMENTS,
  fault: { kind: 'latency' as const, rate: 0.25, latencyMs: 800 },
  instances: 'all' as const,
  durationSeconds: 60,
};

function drill(id: number, name: string, state: DrillView['state']): DrillView {
  return {
    id,
    name,
    state,
    startedAt: '2026-05-01T10:00:00.000Z',
    endsAt: '2026-05-01T10:01:00.000Z',
    endedAt: state === 'running' ? null : '2026-05-01T10:01:00.000Z',
    startedBy: 'Ada',
    stoppedBy: null,
    steps: [{ ...step, index: 0, startsAt: '2026-05-01T10:00:00.000Z', endsAt: '2026-05-01T10:01:00.000Z' }],
    // an expectation's breaker is watched, not hurt: accounts takes no fault
    expectations: [
      {
        breaker: { id: 2, name: 'accounts', service: null },
        state: 'OPEN',
        withinSeconds: 30,
        after: 'start',
        result: 'pending',
        tookSeconds: null,
      },
    ],
    verdict: 'pending',
  };
}

function wallApi(me: AuthUser, drills: () => DrillView[]) {
  return fakeApi({
    'GET /api/auth/user': me,
    'GET /api/circuit-breakers': BREAKERS,
    'GET /api/metrics/latest': { stats: [breakerStats({ configId: 1 }), breakerStats({ configId: 2 })] },
    'GET /api/drills': () => drills(),
  });
}

const tile = (name: string) => within(screen.getByRole('article', { name }));

const live = liveConnectionForThisFile();

it('marks a breaker under a running drill with a Drill badge naming the drill and linking to it', async () => {
  let drills = [drill(4, 'Payments slows down', 'running'), drill(2, 'Last week', 'finished')];
  wallApi(admin, () => drills);
  renderWall();
  await screen.findByRole('article', { name: 'payments' });
  const badge = await tile('payments').findByRole('link', { name: 'Drill running: Payments slows down' });
  expect(badge.textContent).toBe('Drill');
  expect(badge.getAttribute('href')).toBe('/drills/4');
  expect(tile('accounts').queryByRole('link', { name: /^Drill running/ })).toBeNull();

  // the drill ends: the badge goes with the next drillChanged
  drills = [drill(4, 'Payments slows down', 'stopped'), drill(2, 'Last week', 'finished')];
  act(() => live.emit({ type: 'drillChanged', data: { id: 4, state: 'stopped' } }));
  await waitFor(() => expect(tile('payments').queryByRole('link', { name: /^Drill running/ })).toBeNull());
});

it('asks nothing about drills for an account without circuit_breaker_admin', async () => {
  const api = wallApi(viewer, () => [drill(4, 'Payments slows down', 'running')]);
  renderWall();
  await waitFor(() => expect(screen.getAllByTestId('breaker-tile')).toHaveLength(2));
  expect(api.callsTo('GET', '/api/drills')).toHaveLength(0);
  expect(screen.queryByRole('link', { name: /^Drill running/ })).toBeNull();
});

it('marks only the breakers a running drill injects faults into, each with the first drill naming it', () => {
  const marks = drillMarks([drill(4, 'Payments slows down', 'running'), drill(3, 'Older', 'running'), drill(2, 'Last week', 'finished')]);
  expect([...marks]).toEqual([[1, { id: 4, name: 'Payments slows down' }]]);
});
