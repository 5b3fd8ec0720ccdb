import { DDD, DddSimulation, MODEL_TYPES, modelProblem } from './domain-driven-design';
import { FakeScheduler } from './scheduler';

const setup = () => new DddSimulation({ scheduler: new FakeScheduler() });

it('seeds Order Management and Inventory Management, with models of all five types, language and a context map', () => {
  const ddd = setup();
  expect(ddd.state.contexts.map((context) => context.name)).toEqual(['Order Management', 'Inventory Management']);
  const types = new Set(ddd.state.contexts.flatMap((context) => context.models.map((model) => model.type)));
  expect([...types].sort()).toEqual([...MODEL_TYPES].sort());
  for (const context of ddd.state.contexts) {
    expect(context.ubiquitousLanguage.length).toBeGreaterThan(0);
    expect(context.contextMap.length).toBeGreaterThan(0);
  }
  expect(ddd.state.events).toEqual([]);
});

it('adds a model only with a name and a chosen context', () => {
  const ddd = setup();
  expect(modelProblem('', 'order-management')).toBe('Enter a model name');
  expect(modelProblem('Invoice', null)).toBe('Choose a bounded context');
  expect(modelProblem('Invoice', 'order-management')).toBeNull();
  expect(modelProblem('Invoice', 'order-management', DDD.modelsPerContext)).toBe(
    `A context holds at most ${DDD.modelsPerContext} models here`,
  );
  expect(() => ddd.addModel(null, 'Invoice', 'Entity')).toThrow('Choose a bounded context');
  expect(() => ddd.addModel('order-management', ' ', 'Entity')).toThrow('Enter a model name');
  const model = ddd.addModel('inventory-management', ' Supplier ', 'ValueObject');
  expect(model).toMatchObject({ name: 'Supplier', type: 'ValueObject', events: ['SupplierCreated'] });
  expect(ddd.state.contexts[1]!.models.at(-1)!.id).toBe(model.id);
  expect(ddd.state.contexts[0]!.models.some((m) => m.id === model.id)).toBe(false);
});

it('lists a published model event, newest first, with its version per model', () => {
  const ddd = setup();
  ddd.publish('order', 'OrderPlaced');
  ddd.publish('order', 'OrderCancelled');
  ddd.publish('stock-item', 'StockReserved');
  ddd.publish('order', 'NotAnEventOfOrder');
  expect(ddd.state.events.map((event) => [event.name, event.aggregateType, event.version])).toEqual([
    ['StockReserved', 'StockItem', 1],
    ['OrderCancelled', 'Order', 2],
    ['OrderPlaced', 'Order', 1],
  ]);
  for (let i = 0; i < DDD.eventsKept + 10; i++) ddd.publish('order', 'OrderPlaced');
  expect(ddd.state.events).toHaveLength(DDD.eventsKept);
  // versions and the count go on past what is kept
  expect(ddd.state.events[0]!.version).toBe(DDD.eventsKept + 12);
  expect(ddd.state.published).toBe(DDD.eventsKept + 13);
});

it('does not share its seed between engines', () => {
  const first = setup();
  first.addModel('order-management', 'Invoice', 'Entity');
  expect(setup().state.contexts[0]!.models.some((model) => model.name === 'Invoice')).toBe(false);
});
