import { Simulation, type SimulationOptions } from './simulation';

export const MODEL_TYPES = ['Entity', 'ValueObject', 'Aggregate', 'Service', 'Repository'] as const;
export type ModelType = (typeof MODEL_TYPES)[number];
/** How the type dropdown names each type. */
export const MODEL_TYPE_LABELS: Record<ModelType, string> = {
  Entity: 'Entity',
  ValueObject: 'Value Object',
  Aggregate: 'Aggregate',
  Service: 'Service',
  Repository: 'Repository',
};

export interface DomainModel {
  id: string;
  name: string;
  type: ModelType;
  properties: { name: string; type: string; required: boolean }[];
  methods: { name: string; returnType: string; parameters: string[] }[];
  invariants: string[];
  events: string[];
}

export interface BoundedContext {
  id: string;
  name: string;
  description: string;
  models: DomainModel[];
  ubiquitousLanguage: { term: string; definition: string }[];
  contextMap: { upstream: string; downstream: string; relationship: string }[];
}

export interface PublishedEvent {
  id: string;
  name: string;
  aggregateId: string;
  aggregateType: string;
  payload: Record<string, unknown>;
  timestamp: number;
  /** how many times this model has published an event, this one included */
  version: number;
}

export interface DddState {
  contexts: BoundedContext[];
  /** the last DDD.eventsKept, newest first */
  events: PublishedEvent[];
  /** every event published so far */
  published: number;
}

/** Bounds on what a long-open page keeps. */
export const DDD = { eventsKept: 100, modelsPerContext: 50 } as const;

/** Why a model cannot be added yet, or null: it needs a name and a chosen context with room for it. */
export function modelProblem(name: string, contextId: string | null, modelsInContext = 0): string | null {
  if (name.trim() === '') return 'Enter a model name';
  if (!contextId) return 'Choose a bounded context';
  if (modelsInContext >= DDD.modelsPerContext) return `A context holds at most ${DDD.modelsPerContext} models here`;
  return null;
}

const SEED: BoundedContext[] = [
  {
    id: 'order-management',
    name: 'Order Management',
    description: 'Taking orders from customers and seeing them through to delivery.',
    models: [
      {
        id: 'order',
        name: 'Order',
        type: 'Aggregate',
        properties: [
          { name: 'id', type: 'OrderId', required: true },
          { name: 'customerId', type: 'CustomerId', required: true },
          { name: 'lines', type: 'OrderLine[]', required: true },
          { name: 'status', type: 'OrderStatus', required: true },
        ],
        methods: [
          { name: 'addLine', returnType: 'void', parameters: ['product: ProductId', 'quantity: number'] },
          { name: 'place', returnType: 'void', parameters: [] },
          { name: 'cancel', returnType: 'void', parameters: ['reason: string'] },
        ],
        invariants: ['An order has at least one line before it is placed', 'A shipped order cannot be cancelled'],
        events: ['OrderPlaced', 'OrderCancelled'],
      },
      {
        id: 'order-line',
        name: 'OrderLine',
        type: 'Entity',
        properties: [
          { name: 'productId', type: 'ProductId', required: true },
          { name: 'quantity', type: 'number', required: true },
        ],
        methods: [{ name: 'changeQuantity', returnType: 'void', parameters: ['quantity: number'] }],
        invariants: ['Quantity is at least 1'],
        events: ['OrderLineChanged'],
      },
      {
        id: 'money',
        name: 'Money',
        type: 'ValueObject',
        properties: [
          { name: 'amount', type: 'number', required: true },
          { name: 'currency', type: 'string', required: true },
        ],
        methods: [{ name: 'add', returnType: 'Money', parameters: ['other: Money'] }],
        invariants: ['Only amounts of the same currency add up'],
        events: [],
      },
      {
        id: 'pricing-service',
        name: 'PricingService',
        type: 'Service',
        properties: [],
        methods: [{ name: 'priceOf', returnType: 'Money', parameters: ['order: Order'] }],
        invariants: ['A price never goes below zero'],
        events: ['PriceCalculated'],
      },
      {
        id: 'order-repository',
        name: 'OrderRepository',
        type: 'Repository',
        properties: [],
        methods: [
          { name: 'save', returnType: 'void', parameters: ['order: Order'] },
          { name: 'byId', returnType: 'Order', parameters: ['id: OrderId'] },
        ],
        invariants: ['Stores whole aggregates only'],
        events: [],
      },
    ],
    ubiquitousLanguage: [
      { term: 'Order', definition: "A customer's request for products, placed once it has at least one line." },
      { term: 'Order line', definition: 'One product and its quantity within an order.' },
      { term: 'Placing', definition: 'The moment an order becomes binding for both sides.' },
    ],
    contextMap: [
      { upstream: 'Inventory Management', downstream: 'Order Management', relationship: 'Customer–Supplier' },
      { upstream: 'Order Management', downstream: 'Shipping', relationship: 'Published Language' },
    ],
  },
  {
    id: 'inventory-management',
    name: 'Inventory Management',
    description: 'What is in stock, where, and what is set aside for orders.',
    models: [
      {
        id: 'stock-item',
        name: 'StockItem',
        type: 'Aggregate',
        properties: [
          { name: 'sku', type: 'Sku', required: true },
          { name: 'onHand', type: 'number', required: true },
          { name: 'reserved', type: 'number', required: true },
        ],
        methods: [
          { name: 'reserve', returnType: 'Reservation', parameters: ['quantity: number'] },
          { name: 'restock', returnType: 'void', parameters: ['quantity: number'] },
        ],
        invariants: ['Reserved never exceeds on hand'],
        events: ['StockReserved', 'StockReplenished'],
      },
      {
        id: 'warehouse',
        name: 'Warehouse',
        type: 'Entity',
        properties: [
          { name: 'code', type: 'string', required: true },
          { name: 'address', type: 'Address', required: false },
        ],
        methods: [{ name: 'relocate', returnType: 'void', parameters: ['address: Address'] }],
        invariants: ['Each warehouse code is unique'],
        events: ['WarehouseRelocated'],
      },
    ],
    ubiquitousLanguage: [
      { term: 'On hand', definition: 'Units physically in a warehouse.' },
      { term: 'Reservation', definition: 'Units set aside for an order, no longer available to others.' },
    ],
    contextMap: [{ upstream: 'Inventory Management', downstream: 'Order Management', relationship: 'Customer–Supplier' }],
  },
];

/** Domain-driven design: bounded contexts with their models, language and relations; models publish domain events. */
export class DddSimulation extends Simulation<DddState> {
  constructor(options: SimulationOptions = {}) {
    super({ contexts: structuredClone(SEED), events: [], published: 0 }, options);
  }

  private readonly versions = new Map<string, number>();

  addModel(contextId: string | null, name: string, type: ModelType): DomainModel {
    const context = this.state.contexts.find((c) => c.id === contextId);
    const problem = modelProblem(name, context ? contextId : null, context?.models.length);
    if (problem || !context) throw new Error(problem ?? 'Choose a bounded context');
    const model: DomainModel = {
      id: this.nextId('model'),
      name: name.trim(),
      type,
      properties: [{ name: 'id', type: `${name.trim()}Id`, required: true }],
      methods: [],
      invariants: [],
      events: [`${name.trim()}Created`],
    };
    this.update((state) => ({
      ...state,
      contexts: state.contexts.map((c) => (c.id === contextId ? { ...c, models: [...c.models, model] } : c)),
    }));
    return model;
  }

  publish(modelId: string, eventName: string) {
    const context = this.state.contexts.find((c) => c.models.some((m) => m.id === modelId));
    const model = context?.models.find((m) => m.id === modelId);
    if (!context || !model || !model.events.includes(eventName)) return;
    const version = (this.versions.get(model.id) ?? 0) + 1;
    this.versions.set(model.id, version);
    const event: PublishedEvent = {
      id: this.nextId('domain-event'),
      name: eventName,
      aggregateId: model.id,
      aggregateType: model.name,
      payload: { context: context.name, model: model.name },
      timestamp: this.scheduler.now(),
      version,
    };
    this.update((state) => ({ ...state, events: [event, ...state.events].slice(0, DDD.eventsKept), published: state.published + 1 }));
  }
}
