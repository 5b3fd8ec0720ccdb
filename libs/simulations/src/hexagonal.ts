import { chance, pick, wholeBetween } from './random';
import { Simulation, type SimulationOptions } from './simulation';

/** §9: an operation every 3 s, 50 kept, about 10 % failing; a new port gets two placeholder operations. */
export const HEXAGONAL = {
  operationEveryMs: 3000,
  operationsKept: 50,
  failureShare: 0.1,
  placeholderOperations: ['execute', 'query'],
} as const;

export const OPERATION_FAILURE = 'Operation failed';
export const ADAPTER_TYPES = ['web', 'database', 'messaging', 'external-api', 'file'] as const;
export type AdapterType = (typeof ADAPTER_TYPES)[number];
export type PortType = 'primary' | 'secondary';

export interface Port {
  id: string;
  name: string;
  type: PortType;
  /** primary ports drive the core (inbound); secondary ports are driven by it (outbound) */
  direction: 'inbound' | 'outbound';
  operations: string[];
}

export interface Adapter {
  id: string;
  name: string;
  type: AdapterType;
  portId: string;
  status: 'active' | 'inactive';
  configuration: Record<string, string>;
  lastActivity: number | null;
}

export interface OperationRecord {
  id: string;
  name: string;
  input: string;
  output: string | null;
  timestamp: number;
  duration: number;
  status: 'success' | 'error';
  /** 'Operation failed' when it failed */
  error: string | null;
  portUsed: string;
  adapterUsed: string;
}

export interface HexagonalState {
  ports: Port[];
  adapters: Adapter[];
  /** the last 50, newest first */
  operations: OperationRecord[];
  /** every operation so far, not only the ones kept */
  counts: { operations: number; failed: number };
}

export const directionOf = (type: PortType): Port['direction'] => (type === 'primary' ? 'inbound' : 'outbound');

/** Why a port cannot be added yet, or null. */
export function portProblem(name: string): string | null {
  return name.trim() === '' ? 'Enter a port name' : null;
}

const SEED_PORTS: Omit<Port, 'direction'>[] = [
  { id: 'port-orders', name: 'OrderService', type: 'primary', operations: ['placeOrder', 'cancelOrder'] },
  { id: 'port-queries', name: 'OrderQueries', type: 'primary', operations: ['findOrder', 'listOrders'] },
  { id: 'port-repository', name: 'OrderRepository', type: 'secondary', operations: ['save', 'findById'] },
  { id: 'port-payments', name: 'PaymentGateway', type: 'secondary', operations: ['charge', 'refund'] },
  { id: 'port-notifications', name: 'NotificationSender', type: 'secondary', operations: ['send'] },
];

const SEED_ADAPTERS: Omit<Adapter, 'lastActivity'>[] = [
  {
    id: 'adapter-rest',
    name: 'REST API',
    type: 'web',
    portId: 'port-orders',
    status: 'active',
    configuration: { path: '/api/orders', method: 'POST' },
  },
  {
    id: 'adapter-postgres',
    name: 'PostgreSQL',
    type: 'database',
    portId: 'port-repository',
    status: 'active',
    configuration: { table: 'orders', pool: '10' },
  },
  {
    id: 'adapter-queue',
    name: 'Message Queue',
    type: 'messaging',
    portId: 'port-notifications',
    status: 'active',
    configuration: { topic: 'order-events' },
  },
  {
    id: 'adapter-stripe',
    name: 'Payment Provider',
    type: 'external-api',
    portId: 'port-payments',
    status: 'active',
    configuration: { timeout: '5s', retries: '2' },
  },
  {
    id: 'adapter-csv',
    name: 'CSV Export',
    type: 'file',
    portId: 'port-queries',
    status: 'inactive',
    configuration: { directory: '/exports', format: 'csv' },
  },
];

/**
 * Hexagonal architecture: the core talks only to ports; adapters plug technologies into them and can be
 * switched off without touching the core. Every 3 s one operation runs through an active adapter.
 */
export class HexagonalSimulation extends Simulation<HexagonalState> {
  constructor(options: SimulationOptions = {}) {
    super(
      {
        ports: SEED_PORTS.map((port) => ({ ...port, direction: directionOf(port.type) })),
        adapters: SEED_ADAPTERS.map((adapter) => ({ ...adapter, lastActivity: null })),
        operations: [],
        counts: { operations: 0, failed: 0 },
      },
      options,
    );
  }

  start() {
    this.every(HEXAGONAL.operationEveryMs, () => this.operate());
  }

  addPort(name: string, type: PortType): Port {
    const problem = portProblem(name);
    if (problem) throw new Error(problem);
    const port: Port = {
      id: this.nextId('port'),
      name: name.trim(),
      type,
      direction: directionOf(type),
      operations: [...HEXAGONAL.placeholderOperations],
    };
    this.update((state) => ({ ...state, ports: [...state.ports, port] }));
    return port;
  }

  toggleAdapter(adapterId: string) {
    this.update((state) => ({
      ...state,
      adapters: state.adapters.map((adapter) =>
        adapter.id === adapterId ? { ...adapter, status: adapter.status === 'active' ? 'inactive' : 'active' } : adapter,
      ),
    }));
  }

  /** One operation through a random active adapter; none while every adapter is off. */
  operate() {
    const active = this.state.adapters.filter((adapter) => adapter.status === 'active');
    if (active.length === 0) return;
    const adapter = pick(this.random, active);
    const port = this.state.ports.find((p) => p.id === adapter.portId);
    const name = port ? pick(this.random, port.operations) : 'unknown';
    const failed = chance(this.random, HEXAGONAL.failureShare);
    const now = this.scheduler.now();
    const record: OperationRecord = {
      id: this.nextId('op'),
      name,
      input: `{"orderId":"order-${wholeBetween(this.random, 100, 999)}"}`,
      output: failed ? null : '{"ok":true}',
      timestamp: now,
      duration: wholeBetween(this.random, 5, 250),
      status: failed ? 'error' : 'success',
      error: failed ? OPERATION_FAILURE : null,
      portUsed: port?.name ?? adapter.portId,
      adapterUsed: adapter.name,
    };
    this.update((state) => ({
      ...state,
      adapters: state.adapters.map((a) => (a.id === adapter.id ? { ...a, lastActivity: now } : a)),
      operations: [record, ...state.operations].slice(0, HEXAGONAL.operationsKept),
      counts: { operations: state.counts.operations + 1, failed: state.counts.failed + (failed ? 1 : 0) },
    }));
  }
}
