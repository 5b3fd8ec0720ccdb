import { applyEvent, DEFAULT_AGGREGATE_ID, EventSourcingSimulation, rebuild, type StoredEvent } from './event-sourcing';
import { seededRandom } from './random';
import { FakeScheduler } from './scheduler';

const setup = () => new EventSourcingSimulation({ scheduler: new FakeScheduler(), random: seededRandom(9) });
const order = (simulation: EventSourcingSimulation) => simulation.state.aggregates.find((a) => a.id === DEFAULT_AGGREGATE_ID)!;

it('starts with the three events of order-123, the timeline at 3 and the order rebuilt from them', () => {
  const simulation = setup();
  expect(simulation.state.events.map((event) => [event.eventType, event.version])).toEqual([
    ['OrderCreated', 1],
    ['OrderItemAdded', 2],
    ['OrderItemAdded', 3],
  ]);
  expect(simulation.state.position).toBe(3);
  // 1 × 1299.99 + 2 × 29.99
  expect(order(simulation).state).toMatchObject({ customerId: 'customer-456', status: 'created', amount: 1359.97 });
  expect(order(simulation).version).toBe(3);
});

it('adds quantity × price for each item, ships with a tracking number and carrier, completes, and moves the timeline to the end', () => {
  const simulation = setup();
  const before = order(simulation).state.amount;
  simulation.addItem(DEFAULT_AGGREGATE_ID);
  const added = simulation.state.events.at(-1)!;
  const item = added.eventData as { quantity: number; price: number };
  expect(simulation.state.position).toBe(4);
  expect(order(simulation).state.amount).toBe(Math.round((before + item.quantity * item.price) * 100) / 100);
  simulation.ship(DEFAULT_AGGREGATE_ID);
  expect(order(simulation).state).toMatchObject({
    status: 'shipped',
    trackingNumber: expect.stringMatching(/^TRK\d{6}$/),
    carrier: expect.any(String),
  });
  simulation.complete(DEFAULT_AGGREGATE_ID);
  expect(order(simulation).state.status).toBe('completed');
  expect(order(simulation).version).toBe(6);
  expect(simulation.state.position).toBe(6);
});

it('travels in time: the state after N events, and back to the present when an event is added', () => {
  const simulation = setup();
  simulation.ship(DEFAULT_AGGREGATE_ID);
  simulation.travelTo(1);
  expect(order(simulation).state).toMatchObject({ amount: 0, items: [], status: 'created' });
  simulation.travelTo(0);
  expect(simulation.state.aggregates).toEqual([]);
  simulation.travelTo(99);
  expect(simulation.state.position).toBe(4);
  simulation.travelTo(2);
  simulation.complete(DEFAULT_AGGREGATE_ID);
  expect(simulation.state.position).toBe(5);
  expect(order(simulation).state.status).toBe('completed');
});

it('keeps snapshots of the rebuilt state with its version, and other aggregates apart', () => {
  const simulation = setup();
  simulation.createSnapshot(DEFAULT_AGGREGATE_ID);
  simulation.addItem('order-9');
  simulation.rebuildAggregates();
  expect(simulation.state.snapshots).toEqual([expect.objectContaining({ aggregateId: DEFAULT_AGGREGATE_ID, version: 3 })]);
  expect(simulation.state.aggregates.map((a) => [a.id, a.version])).toEqual([
    [DEFAULT_AGGREGATE_ID, 3],
    ['order-9', 1],
  ]);
});

it('applies each event type as the rules say', () => {
  const event = (eventType: StoredEvent['eventType'], eventData: Record<string, unknown>): StoredEvent => ({
    id: 'e',
    aggregateId: 'o',
    eventType,
    eventData,
    timestamp: 1000,
    version: 1,
    userId: 'u',
  });
  const [state] = rebuild([event('OrderCreated', { customerId: 'c' })], 1).map((record) => record.state);
  const withItems = applyEvent(
    applyEvent(state!, event('OrderItemAdded', { productId: 'p', quantity: 3, price: 29.99 })),
    event('OrderItemAdded', { productId: 'q', quantity: 1, price: 0.1 }),
  );
  expect(withItems.amount).toBe(90.07);
  expect(withItems.items).toHaveLength(2);
  expect(applyEvent(withItems, event('OrderShipped', { trackingNumber: 'T1', carrier: 'DHL' }))).toMatchObject({
    status: 'shipped',
    trackingNumber: 'T1',
    carrier: 'DHL',
  });
  expect(applyEvent(withItems, event('OrderCompleted', {}))).toMatchObject({ status: 'completed', completedAt: 1000 });
});
