import { pick, wholeBetween } from './random';
import { Simulation, type SimulationOptions } from './simulation';

export const DEFAULT_AGGREGATE_ID = 'order-123';

export type OrderEventType = 'OrderCreated' | 'OrderItemAdded' | 'OrderShipped' | 'OrderCompleted';

export interface OrderItem {
  productId: string;
  quantity: number;
  price: number;
}

export interface StoredEvent {
  id: string;
  aggregateId: string;
  eventType: OrderEventType;
  eventData: Record<string, unknown>;
  timestamp: number;
  /** this aggregate's events so far, this one included */
  version: number;
  userId: string;
}

export interface OrderState {
  id: string;
  customerId: string | null;
  amount: number;
  status: 'created' | 'shipped' | 'completed';
  items: OrderItem[];
  created: number | null;
  trackingNumber: string | null;
  carrier: string | null;
  completedAt: number | null;
}

export interface AggregateRecord {
  id: string;
  type: 'Order';
  version: number;
  state: OrderState;
  lastModified: number;
}

export interface Snapshot {
  aggregateId: string;
  version: number;
  state: OrderState;
  timestamp: number;
}

export interface EventSourcingState {
  /** the whole stream, oldest first */
  events: StoredEvent[];
  /** how many events of the stream are applied: the event count unless travelling in time */
  position: number;
  /** every aggregate rebuilt from the first `position` events */
  aggregates: AggregateRecord[];
  /** newest first */
  snapshots: Snapshot[];
}

const PRODUCTS: readonly (Omit<OrderItem, 'quantity'> & { name: string })[] = [
  { productId: 'laptop-15', name: 'Laptop 15"', price: 1299.99 },
  { productId: 'mouse-wireless', name: 'Wireless mouse', price: 29.99 },
  { productId: 'monitor-27', name: '27" monitor', price: 349.5 },
  { productId: 'usb-c-hub', name: 'USB-C hub', price: 45 },
];
const CARRIERS = ['DHL', 'UPS', 'FedEx'] as const;

/** Money is kept in cents while adding up, so 3 × 29.99 is 89.97 and not 89.97000000000001. */
const addMoney = (a: number, b: number) => Math.round(a * 100 + b * 100) / 100;

/** One event applied to an order (OrderItemAdded raises the amount by quantity × price). */
export function applyEvent(state: OrderState, event: StoredEvent): OrderState {
  const data = event.eventData;
  switch (event.eventType) {
    case 'OrderCreated':
      return { ...state, customerId: String(data.customerId), status: 'created', created: event.timestamp };
    case 'OrderItemAdded': {
      const item = data as unknown as OrderItem;
      return { ...state, items: [...state.items, item], amount: addMoney(state.amount, item.quantity * item.price) };
    }
    case 'OrderShipped':
      return { ...state, status: 'shipped', trackingNumber: String(data.trackingNumber), carrier: String(data.carrier) };
    case 'OrderCompleted':
      return { ...state, status: 'completed', completedAt: event.timestamp };
  }
}

const emptyOrder = (id: string): OrderState => ({
  id,
  customerId: null,
  amount: 0,
  status: 'created',
  items: [],
  created: null,
  trackingNumber: null,
  carrier: null,
  completedAt: null,
});

/** Every aggregate as the first `position` events of the stream make it. */
export function rebuild(events: readonly StoredEvent[], position: number): AggregateRecord[] {
  const records = new Map<string, AggregateRecord>();
  for (const event of events.slice(0, position)) {
    const previous = records.get(event.aggregateId);
    records.set(event.aggregateId, {
      id: event.aggregateId,
      type: 'Order',
      version: event.version,
      state: applyEvent(previous?.state ?? emptyOrder(event.aggregateId), event),
      lastModified: event.timestamp,
    });
  }
  return [...records.values()];
}

/**
 * Event sourcing: the stream of an order's events is the truth; its state is rebuilt by applying them in order,
 * snapshots save a rebuilt state with its version, and time travel rebuilds up to any position of the stream.
 */
export class EventSourcingSimulation extends Simulation<EventSourcingState> {
  constructor(options: SimulationOptions = {}) {
    super({ events: [], position: 0, aggregates: [], snapshots: [] }, options);
    const start = this.scheduler.now() - 3 * 60_000;
    const seed: [OrderEventType, Record<string, unknown>][] = [
      ['OrderCreated', { customerId: 'customer-456' }],
      ['OrderItemAdded', { productId: 'laptop-15', quantity: 1, price: 1299.99 }],
      ['OrderItemAdded', { productId: 'mouse-wireless', quantity: 2, price: 29.99 }],
    ];
    seed.forEach(([type, data], i) => this.append(DEFAULT_AGGREGATE_ID, type, data, start + i * 60_000));
  }

  addItem(aggregateId: string) {
    const product = pick(this.random, PRODUCTS);
    this.append(aggregateId, 'OrderItemAdded', {
      productId: product.productId,
      quantity: wholeBetween(this.random, 1, 3),
      price: product.price,
    });
  }

  ship(aggregateId: string) {
    this.append(aggregateId, 'OrderShipped', {
      trackingNumber: `TRK${wholeBetween(this.random, 100000, 999999)}`,
      carrier: pick(this.random, CARRIERS),
    });
  }

  complete(aggregateId: string) {
    this.append(aggregateId, 'OrderCompleted', {});
  }

  /** Rebuilds every aggregate from the events up to the current position. */
  rebuildAggregates() {
    this.update((state) => ({ ...state, aggregates: rebuild(state.events, state.position) }));
  }

  /** Saves the aggregate as it stands now, with its version. */
  createSnapshot(aggregateId: string) {
    const record = this.state.aggregates.find((aggregate) => aggregate.id === aggregateId);
    if (!record) return;
    const snapshot: Snapshot = { aggregateId, version: record.version, state: record.state, timestamp: this.scheduler.now() };
    this.update((state) => ({ ...state, snapshots: [snapshot, ...state.snapshots] }));
  }

  /** Time travel: the state as it was after `position` events (0 = before the first). */
  travelTo(position: number) {
    const clamped = Math.max(0, Math.min(this.state.events.length, Math.round(position)));
    this.update((state) => ({ ...state, position: clamped, aggregates: rebuild(state.events, clamped) }));
  }

  private append(aggregateId: string, eventType: OrderEventType, eventData: Record<string, unknown>, at = this.scheduler.now()) {
    const id = aggregateId.trim() || DEFAULT_AGGREGATE_ID;
    this.update((state) => {
      const version = state.events.filter((event) => event.aggregateId === id).length + 1;
      const event: StoredEvent = {
        id: this.nextId('evt'),
        aggregateId: id,
        eventType,
        eventData,
        timestamp: at,
        version,
        userId: 'user-demo',
      };
      const events = [...state.events, event];
      // adding an event moves the timeline to the end
      return { ...state, events, position: events.length, aggregates: rebuild(events, events.length) };
    });
  }
}
