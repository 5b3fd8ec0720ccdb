import { CQRS, commandProblem, CqrsSimulation } from './cqrs';
import { seededRandom } from './random';
import { FakeScheduler } from './scheduler';

const setup = (seed = 7) => {
  const scheduler = new FakeScheduler();
  return { scheduler, cqrs: new CqrsSimulation({ scheduler, random: seededRandom(seed) }) };
};

it('keeps a command pending for 1 s, then executes it and appends its event with the next version of its order', () => {
  const { scheduler, cqrs } = setup(1);
  const command = cqrs.send('CREATE_ORDER', ' order-1 ');
  expect(cqrs.state.commands[0]).toMatchObject({ id: command.id, status: 'pending', payload: { orderId: 'order-1' } });
  scheduler.advance(999);
  expect(cqrs.state.commands[0]!.status).toBe('pending');
  expect(cqrs.state.events).toEqual([]);
  // seed 1 executes the first two commands
  scheduler.advance(1);
  expect(cqrs.state.commands[0]!.status).toBe('executed');
  expect(cqrs.state.events[0]).toMatchObject({ aggregateId: 'order-1', eventType: 'OrderCreated', version: 1, timestamp: scheduler.now() });
  cqrs.send('PROCESS_PAYMENT', 'order-1');
  scheduler.advance(1000);
  expect(cqrs.state.events[0]).toMatchObject({ aggregateId: 'order-1', eventType: 'PaymentProcessed', version: 2 });
});

it('fails about 10 % of commands (within 2 points over 5,000); a failure is recorded but changes no read model', () => {
  const { scheduler, cqrs } = setup(42);
  for (let i = 0; i < 5000; i++) cqrs.send('UPDATE_INVENTORY', `order-${i % 50}`);
  expect(cqrs.state.counts.pending).toBe(5000);
  scheduler.advance(CQRS.outcomeAfterMs);
  const { executed, failed, pending } = cqrs.state.counts;
  expect(pending).toBe(0);
  expect(executed + failed).toBe(5000);
  expect(failed / 5000).toBeGreaterThan(0.08);
  expect(failed / 5000).toBeLessThan(0.12);
  expect(cqrs.state.readModel.inventoryUpdates).toBe(executed);
  // every outcome took its order's next version: 100 commands for each of 50 orders
  expect(cqrs.state.events[0]!.version).toBe(100);
});

it('appends a failed command to the event store at the moment it fails', () => {
  for (let seed = 1; seed < 200; seed++) {
    const { scheduler, cqrs } = setup(seed);
    cqrs.send('PROCESS_PAYMENT', 'order-9');
    scheduler.advance(CQRS.outcomeAfterMs);
    if (cqrs.state.commands[0]!.status !== 'failed') continue;
    expect(cqrs.state.events[0]).toMatchObject({
      eventType: 'CommandFailed',
      aggregateId: 'order-9',
      version: 1,
      eventData: { command: 'PROCESS_PAYMENT' },
    });
    expect(cqrs.state.readModel.payments).toBe(0);
    return;
  }
  throw new Error('no seed below 200 failed a command');
});

it('keeps the last 10 commands and results and the last 15 events, newest first', () => {
  const { scheduler, cqrs } = setup(3);
  for (let i = 0; i < 30; i++) cqrs.send('CREATE_ORDER', `order-${i}`);
  scheduler.advance(CQRS.outcomeAfterMs);
  for (let i = 0; i < 30; i++) cqrs.query('GET_ORDERS');
  scheduler.advance(CQRS.queryMs[1]);
  expect(cqrs.state.commands).toHaveLength(10);
  expect(cqrs.state.commands[0]!.payload.orderId).toBe('order-29');
  expect(cqrs.state.results).toHaveLength(10);
  expect(cqrs.state.events).toHaveLength(15);
  expect(cqrs.state.events.map((event) => event.timestamp)).toEqual(
    [...cqrs.state.events.map((event) => event.timestamp)].sort((a, b) => b - a),
  );
});

it('answers queries from the read model after 100–600 ms, reporting the time taken', () => {
  const { scheduler, cqrs } = setup(5);
  cqrs.send('CREATE_ORDER', 'a');
  cqrs.send('CREATE_ORDER', 'b');
  scheduler.advance(CQRS.outcomeAfterMs);
  const orders = cqrs.state.readModel.orders;
  for (let i = 0; i < 200; i++) cqrs.query('GET_ORDERS');
  scheduler.advance(99);
  expect(cqrs.state.results).toEqual([]);
  scheduler.advance(501);
  expect(cqrs.state.counts.queries).toBe(200);
  for (const result of cqrs.state.results) {
    expect(result.executionTime).toBeGreaterThanOrEqual(100);
    expect(result.executionTime).toBeLessThanOrEqual(600);
    expect(result.result).toEqual({ orders });
  }
});

it('needs an order ID, and stops every timer when stopped', () => {
  expect(commandProblem('  ')).toBe('Enter an order ID');
  expect(commandProblem('order-1')).toBeNull();
  const { scheduler, cqrs } = setup();
  expect(() => cqrs.send('CREATE_ORDER', '')).toThrow('Enter an order ID');
  cqrs.send('CREATE_ORDER', 'x');
  cqrs.query('GET_ANALYTICS');
  cqrs.stop();
  expect(scheduler.pending).toBe(0);
  scheduler.advance(5000);
  expect(cqrs.state.commands[0]!.status).toBe('pending');
});
