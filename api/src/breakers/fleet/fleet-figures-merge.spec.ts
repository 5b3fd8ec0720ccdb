import type { BreakerConfigEntity } from '../entities/breaker-config.entity';
import type { FleetCatalog } from './fleet-catalog.service';
import { FleetFigures } from './fleet-figures.service';
import type { FleetRepository } from './fleet.repository';
import type { InstanceChange, InstanceRow, StoredPeriod } from './instance-periods';

// the merger's reads without a database: what FleetRepository.instancesWrittenSince hands it, one read at a time
const T = 1_800_000_000_000;
const config = { id: 1, name: 'db', source: 'agent', service: 'orders', override: 'none' } as BreakerConfigEntity;
const period = (at: number, successes: number): StoredPeriod => [at, successes, 0, 0, 0, 4, 40, 1000, 20, successes];
const fields = (writes: number, at: number): Omit<InstanceRow, 'periods' | 'totals'> => ({
  configId: 1,
  instance: 'a',
  state: 'CLOSED',
  override: 'none',
  reportedAt: at,
  periodMs: 1000,
  lastMoveAt: null,
  writes,
});

type Read = (
  known: (configId: number, instance: string) => InstanceRow | undefined,
  inPlace: (change: InstanceChange, newest: StoredPeriod) => boolean,
) => { rows: InstanceRow[]; horizon: string };

function merger(reads: Read[]) {
  const repository = {
    instancesWrittenSince: async (_horizon: string, _now: number, known: Parameters<Read>[0], inPlace: Parameters<Read>[1]) =>
      reads.shift()!(known, inPlace),
    writeFigures: async () => undefined,
    forgetInstances: async () => undefined,
  } as unknown as FleetRepository;
  const catalog = { ready: async () => undefined, size: 1, all: () => [config], get: () => config } as unknown as FleetCatalog;
  const bus = { publishInternal: async () => undefined, publishHere: () => undefined, instanceId: 'replica-1' };
  const figures = new FleetFigures(
    {} as never,
    repository,
    catalog,
    bus as never,
    { holds: () => true } as never,
    { aliveCount: async () => 1 } as never,
  );
  const refresh = (now: number) => (figures as unknown as { refresh(now: number): Promise<void> }).refresh(now);
  return { figures, refresh };
}

describe("the fleet's merger", () => {
  it('merges a row brought up to date in place by a read that then failed, at the next read', async () => {
    const { figures, refresh } = merger([
      () => ({ rows: [{ ...fields(1, T), periods: [period(T, 10)], totals: [] }], horizon: '1' }),
      // the instance reports again 20 s on: its row is taken in place, then the read of whole rows is refused
      (_known, inPlace) => {
        expect(inPlace({ ...fields(2, T + 20_000), newest: period(T + 20_000, 5) }, period(T + 20_000, 5))).toBe(true);
        throw new Error('read refused');
      },
      // the next read finds the row as the merger holds it now: nothing to take, and its figures still to merge
      () => ({ rows: [], horizon: '2' }),
    ]);
    await refresh(T);
    expect(figures.stats()[0]?.successCount).toBe(10);
    await refresh(T + 20_000);
    await refresh(T + 20_500);
    expect(figures.stats()[0]).toMatchObject({ successCount: 5, instances: { total: 1, stale: 0 } });
  });
});
