import { between, chance, wholeBetween } from './random';
import { prepend, Simulation, type SimulationOptions } from './simulation';

/** §9: the outcome after 1 s, about 10 % failing, queries answered in 100–600 ms, 10 commands and results, 15 events. */
export const CQRS = {
  outcomeAfterMs: 1000,
  failureShare: 0.1,
  queryMs: [100, 600],
  commandsShown: 10,
  resultsShown: 10,
  eventsShown: 15,
} as const;

export const COMMAND_TYPES = ['CREATE_ORDER', 'UPDATE_INVENTORY', 'PROCESS_PAYMENT'] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];
export const QUERY_TYPES = ['GET_ORDERS', 'GET_INVENTORY', 'GET_ANALYTICS'] as const;
export type QueryType = (typeof QUERY_TYPES)[number];

/** What each command records in the event store once it has executed. */
const EVENT_OF: Record<CommandType, string> = {
  CREATE_ORDER: 'OrderCreated',
  UPDATE_INVENTORY: 'InventoryUpdated',
  PROCESS_PAYMENT: 'PaymentProcessed',
};
/** What the event store records for a command that failed: the attempt, which changes no read model. */
export const FAILED_EVENT = 'CommandFailed';

export interface CqrsCommand {
  id: string;
  type: CommandType;
  payload: { orderId: string; quantity?: number; amount?: number };
  timestamp: number;
  status: 'pending' | 'executed' | 'failed';
}

export interface CqrsEvent {
  id: string;
  aggregateId: string;
  eventType: string;
  eventData: CqrsCommand['payload'] & { command?: CommandType };
  timestamp: number;
  /** this aggregate's events so far, this one included */
  version: number;
}

export interface QueryResult {
  id: string;
  type: QueryType;
  result: Record<string, number>;
  executionTime: number;
  timestamp: number;
}

export interface CqrsState {
  /** newest first */
  commands: CqrsCommand[];
  /** newest first */
  results: QueryResult[];
  /** newest first */
  events: CqrsEvent[];
  /** the read model, projected from every executed command (not only the events shown) */
  readModel: { orders: number; inventoryUpdates: number; payments: number; revenue: number };
  counts: { pending: number; executed: number; failed: number; queries: number };
}

/** Why a command cannot be sent yet, or null (the button shows the reason instead of failing after a click). */
export function commandProblem(orderId: string): string | null {
  return orderId.trim() === '' ? 'Enter an order ID' : null;
}

/**
 * CQRS: commands change the write side and are answered later (pending, then executed or failed after 1 s, each
 * outcome appended to the event store at that moment with its order's next version); queries read the read
 * model only, which a failed command does not change.
 */
export class CqrsSimulation extends Simulation<CqrsState> {
  private readonly versions = new Map<string, number>();

  constructor(options: SimulationOptions = {}) {
    super(
      {
        commands: [],
        results: [],
        events: [],
        readModel: { orders: 0, inventoryUpdates: 0, payments: 0, revenue: 0 },
        counts: { pending: 0, executed: 0, failed: 0, queries: 0 },
      },
      options,
    );
  }

  send(type: CommandType, orderId: string): CqrsCommand {
    const problem = commandProblem(orderId);
    if (problem) throw new Error(problem);
    const payload =
      type === 'UPDATE_INVENTORY'
        ? { orderId: orderId.trim(), quantity: wholeBetween(this.random, 1, 20) }
        : type === 'PROCESS_PAYMENT'
          ? { orderId: orderId.trim(), amount: Math.round(between(this.random, 10, 500) * 100) / 100 }
          : { orderId: orderId.trim() };
    const command: CqrsCommand = { id: this.nextId('cmd'), type, payload, timestamp: this.scheduler.now(), status: 'pending' };
    this.update((state) => ({
      ...state,
      commands: prepend(state.commands, command, CQRS.commandsShown),
      counts: { ...state.counts, pending: state.counts.pending + 1 },
    }));
    this.after(CQRS.outcomeAfterMs, () => this.settle(command));
    return command;
  }

  query(type: QueryType) {
    const executionTime = Math.round(between(this.random, CQRS.queryMs[0], CQRS.queryMs[1]));
    this.after(executionTime, () =>
      this.update((state) => {
        const { orders, inventoryUpdates, payments, revenue } = state.readModel;
        const result: Record<string, number> =
          type === 'GET_ORDERS'
            ? { orders }
            : type === 'GET_INVENTORY'
              ? { inventoryUpdates }
              : { payments, revenue: Math.round(revenue * 100) / 100, failedCommands: state.counts.failed };
        const answer: QueryResult = { id: this.nextId('qry'), type, result, executionTime, timestamp: this.scheduler.now() };
        return {
          ...state,
          results: prepend(state.results, answer, CQRS.resultsShown),
          counts: { ...state.counts, queries: state.counts.queries + 1 },
        };
      }),
    );
  }

  private settle(command: CqrsCommand) {
    const failed = chance(this.random, CQRS.failureShare);
    const now = this.scheduler.now();
    const aggregateId = command.payload.orderId;
    const version = (this.versions.get(aggregateId) ?? 0) + 1;
    this.versions.set(aggregateId, version);
    const event: CqrsEvent = {
      id: this.nextId('evt'),
      aggregateId,
      eventType: failed ? FAILED_EVENT : EVENT_OF[command.type],
      eventData: failed ? { ...command.payload, command: command.type } : command.payload,
      timestamp: now,
      version,
    };
    this.update((state) => {
      const status = failed ? ('failed' as const) : ('executed' as const);
      const commands = state.commands.map((c) => (c.id === command.id ? { ...c, status } : c));
      const events = prepend(state.events, event, CQRS.eventsShown);
      const counts = { ...state.counts, pending: state.counts.pending - 1 };
      if (failed) return { ...state, commands, events, counts: { ...counts, failed: counts.failed + 1 } };
      const model = state.readModel;
      return {
        ...state,
        commands,
        events,
        readModel: {
          orders: model.orders + (command.type === 'CREATE_ORDER' ? 1 : 0),
          inventoryUpdates: model.inventoryUpdates + (command.type === 'UPDATE_INVENTORY' ? 1 : 0),
          payments: model.payments + (command.type === 'PROCESS_PAYMENT' ? 1 : 0),
          revenue: model.revenue + (command.payload.amount ?? 0),
        },
        counts: { ...counts, executed: counts.executed + 1 },
      };
    });
  }
}
