import { HEXAGONAL, HexagonalSimulation, portProblem } from './hexagonal';
import { seededRandom } from './random';
import { FakeScheduler } from './scheduler';

const setup = (seed = 11) => {
  const scheduler = new FakeScheduler();
  return { scheduler, hex: new HexagonalSimulation({ scheduler, random: seededRandom(seed) }) };
};

it('gives primary ports the inbound direction and secondary ones outbound, with two placeholder operations for a new one', () => {
  const { hex } = setup();
  for (const port of hex.state.ports) expect(port.direction).toBe(port.type === 'primary' ? 'inbound' : 'outbound');
  expect(new Set(hex.state.adapters.map((adapter) => adapter.type))).toEqual(
    new Set(['web', 'database', 'messaging', 'external-api', 'file']),
  );
  expect(hex.addPort(' Billing ', 'secondary')).toMatchObject({ name: 'Billing', direction: 'outbound', operations: ['execute', 'query'] });
  expect(hex.addPort('Api', 'primary').direction).toBe('inbound');
  expect(portProblem('')).toBe('Enter a port name');
  expect(() => hex.addPort('  ', 'primary')).toThrow('Enter a port name');
});

it('runs an operation every 3 s through an active adapter only, about 10 % failing, keeping the last 50', () => {
  const { scheduler, hex } = setup();
  hex.start();
  scheduler.advance(HEXAGONAL.operationEveryMs - 1);
  expect(hex.state.operations).toEqual([]);
  scheduler.advance(1);
  expect(hex.state.operations).toHaveLength(1);
  const inactive = hex.state.adapters.filter((adapter) => adapter.status === 'inactive').map((adapter) => adapter.name);
  scheduler.advance(3000 * HEXAGONAL.operationEveryMs);
  expect(hex.state.operations).toHaveLength(HEXAGONAL.operationsKept);
  expect(hex.state.operations.some((op) => inactive.includes(op.adapterUsed))).toBe(false);
  hex.stop();
  // over many operations the failures are about 10 %
  let failed = 0;
  for (let i = 0; i < 5000; i++) {
    hex.operate();
    if (hex.state.operations[0]!.status === 'error') failed++;
  }
  expect(failed / 5000).toBeGreaterThan(0.08);
  expect(failed / 5000).toBeLessThan(0.12);
  const failures = hex.state.operations.filter((op) => op.status === 'error');
  expect(failures.every((op) => op.output === null && op.error === 'Operation failed')).toBe(true);
  // counted over every operation, not only the 50 kept
  expect(hex.state.counts.operations).toBeGreaterThan(5000);
  expect(hex.state.counts.failed).toBeGreaterThanOrEqual(failed);
});

it('toggles adapters between active and inactive, and runs nothing while all are off', () => {
  const { scheduler, hex } = setup();
  const first = hex.state.adapters[0]!;
  hex.toggleAdapter(first.id);
  expect(hex.state.adapters[0]!.status).toBe(first.status === 'active' ? 'inactive' : 'active');
  hex.toggleAdapter(first.id);
  expect(hex.state.adapters[0]!.status).toBe(first.status);
  for (const adapter of hex.state.adapters) if (adapter.status === 'active') hex.toggleAdapter(adapter.id);
  hex.start();
  scheduler.advance(10 * HEXAGONAL.operationEveryMs);
  expect(hex.state.operations).toEqual([]);
  hex.stop();
  expect(scheduler.pending).toBe(0);
});
