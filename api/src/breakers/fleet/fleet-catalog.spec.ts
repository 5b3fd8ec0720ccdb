import type { BreakerConfigEntity } from '../entities/breaker-config.entity';
import { FleetCatalog } from './fleet-catalog.service';

// the catalog's lookups alone: its reads from the database and the bus are covered through the reports (fleet.spec.ts)
const catalog = () => new FleetCatalog({} as never, {} as never);
const config = (id: number, name: string, version = 1, service = 'orders', source: 'agent' | 'scrape' = 'agent') =>
  ({ id, name, version, service, source }) as BreakerConfigEntity;

describe("the fleet's catalog", () => {
  it("finds a service's breaker by name whatever its case, and counts only that service's breakers", () => {
    const kept = catalog();
    kept.keep(config(1, 'Payments'));
    kept.keep(config(2, 'stock'));
    kept.keep(config(3, 'payments', 1, 'billing'));
    kept.keep(config(4, 'payments', 1, 'orders', 'scrape'));
    expect(kept.find('agent', 'orders', 'PAYMENTS')?.id).toBe(1);
    expect(kept.find('agent', 'billing', 'payments')?.id).toBe(3);
    expect(kept.find('scrape', 'orders', 'payments')?.id).toBe(4);
    expect(kept.find('agent', 'shipping', 'payments')).toBeUndefined();
    expect([kept.ofService('agent', 'orders').size, kept.ofService('agent', 'billing').size, kept.ofService('agent', 'none').size]).toEqual(
      [2, 1, 0],
    );
  });

  it('follows a rename and a deletion, and ignores a read older than the row it holds', () => {
    const kept = catalog();
    kept.keep(config(1, 'payments', 2));
    kept.keep(config(1, 'checkout', 3));
    expect([kept.find('agent', 'orders', 'payments'), kept.find('agent', 'orders', 'checkout')?.id]).toEqual([undefined, 1]);
    kept.keep(config(1, 'payments', 2));
    expect(kept.find('agent', 'orders', 'checkout')?.version).toBe(3);
    kept.forget(1);
    expect([kept.find('agent', 'orders', 'checkout'), kept.ofService('agent', 'orders').size, kept.size]).toEqual([undefined, 0, 0]);
    // a read of it still on its way does not bring it back
    kept.keep(config(1, 'checkout', 4));
    expect(kept.find('agent', 'orders', 'checkout')).toBeUndefined();
  });

  it('keeps a name another breaker took while the one renamed from it is read again', () => {
    const kept = catalog();
    kept.keep(config(1, 'Foo'));
    // Foo renamed to bar and a new foo made: the new one's read lands before the renamed one's
    kept.keep(config(2, 'foo'));
    kept.keep(config(1, 'bar', 2));
    expect([
      kept.find('agent', 'orders', 'foo')?.id,
      kept.find('agent', 'orders', 'bar')?.id,
      kept.ofService('agent', 'orders').size,
    ]).toEqual([2, 1, 2]);
  });
});
