import { AGENT_PROTOCOL_LIMITS, FAULT_KINDS, type AgentFault, type AgentFaultsStatus, type FaultKind } from '@cbh/contracts';
import type { BreakerAdapter } from './adapters/adapter';
import type { ActiveFault } from './fault-call';

export { InjectedFault, isInjectedFault, runFaulted, type ActiveFault } from './fault-call';

/*
 * Drills' faults, injected into a breaker's calls so that the breaker itself sees a slow, failed or timed-out call
 * and reacts as it would to the real thing. They fail safe: a fault ends at its `until` by the instance's own clock,
 * and the connection drops them all when the hub has been silent for AGENT_FAULT_SILENCE_PERIODS reporting periods.
 */

/** The reason every fault is refused by a service that did not opt in. */
export const FAULTS_NOT_ALLOWED = 'this service does not take faults: createAgent({ allowFaults: true })';

/** setTimeout's longest delay: a longer one would fire at once (Node takes it for 1 ms). */
const MAX_DELAY_MS = 2_147_483_647;
/** The hub's schema bounds a refusal's reason. */
const REASON_LENGTH = 500;

/** What a reply's faults changed, for the connection's log. */
export interface FaultsChange {
  started: ActiveFault[];
  /** The ids of the faults the reply ended (left out of its list). */
  ended: string[];
  refused: { id: string; reason: string }[];
}

/** Same fault as running, so that a reply repeating it changes nothing (the breaker keeps the object it holds). */
function same(a: ActiveFault, b: ActiveFault): boolean {
  return (
    a.id === b.id && a.kind === b.kind && a.rate === b.rate && a.delayMs === b.delayMs && a.givesUp === b.givesUp && a.untilMs === b.untilMs
  );
}

/**
 * The agent's faults: which breaker runs which, and what was refused since the last report. The breaker's own
 * slot (BreakerAdapter.injectFault) is what its calls read; this book is the list the reports are made of.
 */
export class FaultBook {
  /** The fault each breaker runs, by breaker name. */
  private readonly running = new Map<string, ActiveFault>();
  /** Refused since the last report, by fault id: each once, its latest reason. */
  private readonly refusedSince = new Map<string, string>();

  constructor(
    readonly allowed: boolean,
    private readonly now: () => number,
    private readonly random: () => number,
    private readonly adapterOf: (name: string) => BreakerAdapter | undefined,
  ) {}

  /**
   * Runs the faults of a reply: the whole list, so that a fault left out ends, and no list (undefined, or anything
   * but an array) ends them all. A fault whose `until` has passed is not started. A service that did not opt in
   * refuses each.
   */
  apply(list: unknown): FaultsChange {
    const change: FaultsChange = { started: [], ended: [], refused: [] };
    const faults: unknown[] = Array.isArray(list) ? list : [];
    const refuse = (item: unknown, reason: string) => {
      const id = (item as { id?: unknown } | null)?.id;
      const refusal = {
        id: typeof id === 'string' ? id.slice(0, AGENT_PROTOCOL_LIMITS.reportIdLength) : '',
        reason: reason.slice(0, REASON_LENGTH),
      };
      // bounded as a report's list is, whatever a reply holds
      if (this.refusedSince.size < AGENT_PROTOCOL_LIMITS.faultsPerInstance || this.refusedSince.has(refusal.id)) {
        this.refusedSince.set(refusal.id, refusal.reason);
        change.refused.push(refusal);
      }
    };
    const wanted = new Map<string, ActiveFault>();
    faults.forEach((item, index) => {
      if (!this.allowed) return refuse(item, FAULTS_NOT_ALLOWED);
      if (index >= AGENT_PROTOCOL_LIMITS.faultsPerInstance) {
        return refuse(item, `an instance runs at most ${AGENT_PROTOCOL_LIMITS.faultsPerInstance} faults at once`);
      }
      const fault = this.plan(item);
      if (typeof fault === 'string') return refuse(item, fault);
      if (!(this.now() < fault.untilMs)) return; // over already by this instance's clock: nothing to run
      const other = wanted.get(fault.breaker);
      if (other) return refuse(item, `breaker "${fault.breaker}" runs fault ${other.id} already: one fault per breaker`);
      wanted.set(fault.breaker, fault);
    });
    for (const [breaker, fault] of this.running) {
      if (wanted.get(breaker)?.id === fault.id) continue;
      this.adapterOf(breaker)?.injectFault?.(undefined);
      this.running.delete(breaker);
      change.ended.push(fault.id);
    }
    for (const [breaker, fault] of wanted) {
      const current = this.running.get(breaker);
      if (current && same(current, fault)) continue;
      this.adapterOf(breaker)?.injectFault?.(fault);
      this.running.set(breaker, fault);
      if (!current) change.started.push(fault);
    }
    return change;
  }

  /** The fault of one item of a reply, or why it is refused. */
  private plan(item: unknown): ActiveFault | string {
    if (typeof item !== 'object' || item === null) return 'not a fault';
    const { id, breaker, kind, rate, latencyMs, until } = item as Partial<Record<keyof AgentFault, unknown>>;
    if (typeof id !== 'string' || id === '' || id.length > AGENT_PROTOCOL_LIMITS.reportIdLength) {
      return `its id must be 1 to ${AGENT_PROTOCOL_LIMITS.reportIdLength} characters`;
    }
    if (typeof breaker !== 'string') return 'it names no breaker';
    const adapter = this.adapterOf(breaker);
    if (!adapter) return `no breaker named "${breaker}" is registered`;
    if (!adapter.injectFault) return `breaker "${breaker}" is watched by an adapter that cannot inject faults`;
    if (!FAULT_KINDS.includes(kind as FaultKind)) return `unknown kind ${JSON.stringify(kind)}: this agent takes ${FAULT_KINDS.join(', ')}`;
    if (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)) return 'rate must be a number from 0 to 1';
    if (latencyMs !== undefined && !(typeof latencyMs === 'number' && latencyMs >= 0 && latencyMs <= MAX_DELAY_MS)) {
      return `latencyMs must be a number from 0 to ${MAX_DELAY_MS}`;
    }
    const untilMs = typeof until === 'string' ? Date.parse(until) : NaN;
    if (!Number.isFinite(untilMs)) return 'until must be an ISO 8601 time';
    const base = { id, breaker, kind: kind as FaultKind, rate, untilMs, now: this.now, random: this.random };
    if (kind === 'error') return { ...base, delayMs: 0, givesUp: false };
    if (kind === 'latency') {
      return latencyMs === undefined ? 'a latency fault needs latencyMs' : { ...base, delayMs: latencyMs, givesUp: false };
    }
    const limit = adapter.callLimit?.();
    if (latencyMs === undefined && !limit) {
      return `breaker "${breaker}" (${adapter.library}) has no timeout of its own: a timeout fault on it needs latencyMs`;
    }
    // "the breaker's own timeout and a little more": past its timer, whatever else runs on the event loop then
    const delayMs = (latencyMs as number | undefined) ?? limit!.ms + Math.max(20, Math.round(limit!.ms / 10));
    return { ...base, delayMs, givesUp: limit?.cuts === true && delayMs >= limit.ms };
  }

  /** Ends every fault at once (the hub silent too long, the connection stopped); returns their ids. */
  drop(): string[] {
    const ids: string[] = [];
    for (const [breaker, fault] of this.running) {
      this.adapterOf(breaker)?.injectFault?.(undefined);
      ids.push(fault.id);
    }
    this.running.clear();
    return ids;
  }

  /** A breaker unregistered takes its fault with it. */
  forget(breaker: string): void {
    if (!this.running.has(breaker)) return;
    this.adapterOf(breaker)?.injectFault?.(undefined);
    this.running.delete(breaker);
  }

  /** The ids of the faults running now, those past their `until` ended first. */
  active(): string[] {
    const now = this.now();
    const ids: string[] = [];
    for (const [breaker, fault] of this.running) {
      if (now < fault.untilMs) {
        ids.push(fault.id);
        continue;
      }
      // a call may have ended it already; if no call came, its opossum action is put back here
      this.adapterOf(breaker)?.injectFault?.(undefined);
      this.running.delete(breaker);
    }
    return ids;
  }

  /** What a report says of faults: the refusals since the previous report, each once, then forgotten. */
  status(): AgentFaultsStatus {
    const status: AgentFaultsStatus = { allowed: this.allowed, active: this.active() };
    if (this.refusedSince.size > 0) {
      status.refused = [...this.refusedSince].slice(0, AGENT_PROTOCOL_LIMITS.faultsPerInstance).map(([id, reason]) => ({ id, reason }));
      this.refusedSince.clear();
    }
    return status;
  }
}
