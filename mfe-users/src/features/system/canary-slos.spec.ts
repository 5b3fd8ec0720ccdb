import type { ReleaseView } from '@cbh/contracts';
import { slosJudging, slosToSend } from './canary-slos';
import { DASHBOARD, SLOS } from './release.test-kit';

it('offers a canary only the SLOs over its own remote’s loads, whichever spelling names the remote', () => {
  expect(slosJudging(SLOS, 'mfe_dashboard').map((slo) => slo.id)).toEqual([31, 34]);
  expect(slosJudging(SLOS, 'mfe-dashboard').map((slo) => slo.id)).toEqual([31, 34]);
  expect(slosJudging(SLOS, 'mfe_users').map((slo) => slo.id)).toEqual([32]);
  expect(slosJudging(SLOS, 'mfe_domains')).toEqual([]);
});

it('sends the SLOs ticked, and an empty list only to drop those the running canary names', () => {
  const judged: ReleaseView = { ...DASHBOARD, canary: { ...DASHBOARD.canary!, slos: [{ id: 31, name: 'Dashboard loads' }] } };
  expect(slosToSend([31, 34], DASHBOARD, 13)).toEqual([31, 34]);
  expect(slosToSend([], DASHBOARD, 13)).toBeUndefined();
  expect(slosToSend([], DASHBOARD, 14)).toBeUndefined();
  expect(slosToSend([], judged, 14)).toEqual([]);
  expect(slosToSend([], judged, 13)).toBeUndefined();
});
