import { randomUUID } from 'node:crypto';
import {
  AGENT_PROTOCOL_LIMITS,
  AGENT_PROTOCOL_VERSION,
  MANUAL_ACTION_TEXT,
  type AgentBreakerControl,
  type AgentBreakerReport,
  type AgentCommand,
  type AgentReport,
  type AgentSettingsChange,
  type AgentTransition,
  type BreakerOverride,
} from '@cbh/contracts';
import type { BreakerAdapter, SettingsResult } from './adapters/adapter';
import { FaultBook, type FaultsChange } from './faults';
import { RollingWindow } from './rolling-window';

export interface AgentOptions {
  service: string;
  instance: string;
  /** The clock of sentAt and of the faults' `until` (ms since the epoch); Date.now by default. */
  now?: () => number;
  /**
   * Whether this service takes the drills' faults the hub sends (false by default: each is refused, and the reports
   * say so). A fault hurts the service's real calls, so it is the service's own choice.
   */
  allowFaults?: boolean;
  /** Which calls a fault hits: a call is hit when this is below the fault's rate. Math.random by default. */
  random?: () => number;
}

export interface RegisterOptions {
  /** The latency histogram's bounds in ms; DEFAULT_LATENCY_BOUNDS_MS by default. */
  boundsMs?: readonly number[];
}

/** Where flush() hands a report: a transport of the caller's own (connectToHub is the agent's way to the hub). */
export type ReportSender = (report: AgentReport) => Promise<void> | void;

export interface Agent {
  readonly service: string;
  readonly instance: string;
  /** Starts reporting a breaker; refuses a second one of the same name and more than the protocol's limit. Returns the unregister. */
  register(adapter: BreakerAdapter, options?: RegisterOptions): () => void;
  /** Builds this period's report and starts the next period (windows drained, transitions handed over). */
  report(): AgentReport;
  /**
   * Builds a report and gives it to send. A failed send loses that period: connectToHub keeps it and merges it into
   * the next report instead.
   */
  flush(send: ReportSender): Promise<void>;
  /** Applies a manual control from the hub to the named breaker. */
  command(command: AgentCommand): void;
  /** Applies new settings from the hub to the named breaker, saying which it took. */
  changeSettings(change: AgentSettingsChange): SettingsResult;
  /**
   * Brings a breaker to what the hub wants of it, when the control's revision is newer than the one applied last to
   * that breaker (0 when registered): a reset first when the hub reset it since, then its settings, then its
   * override. Returns null when there was nothing to do (revision applied already, or no breaker of that name).
   */
  applyControl(control: AgentBreakerControl): ControlResult | null;
  /** The names of the breakers registered. */
  names(): string[];
  /** Whether the service takes faults (AgentOptions.allowFaults). */
  readonly allowFaults: boolean;
  /**
   * Runs the faults of the hub's reply: the whole list, so a fault left out ends, and none (undefined) ends them all.
   * A fault for a breaker not registered, or one it cannot apply, is refused (every fault, unless allowFaults); the
   * next report says which and why.
   */
  applyFaults(faults: unknown): FaultsChange;
  /** Ends every fault at once, returning their ids: faults fail safe when the hub is silent. */
  dropFaults(): string[];
  /** The ids of the faults running now. */
  activeFaults(): string[];
}

/** What applyControl() did about the settings: what the adapter took, or why it refused them all (a value out of range). */
export interface ControlResult {
  settings: SettingsResult | null;
  refused: string | null;
}

interface Entry {
  adapter: BreakerAdapter;
  window: RollingWindow;
  stop: () => void;
  /** The revision of the hub's control applied last. */
  revision: number;
  /** The override the hub's controls put on the breaker, so that the hub's `none` lifts that one and no other. */
  hubOverride: BreakerOverride;
}

function checkName(what: string, name: string): void {
  if (typeof name !== 'string' || name.trim() === '' || name.length > AGENT_PROTOCOL_LIMITS.nameLength) {
    throw new RangeError(`${what} must be 1 to ${AGENT_PROTOCOL_LIMITS.nameLength} characters`);
  }
}

/**
 * The local half of the agent: it counts every registered breaker's calls in a rolling window, keeps the
 * transitions they take (the newest AGENT_PROTOCOL_LIMITS.transitionsPerReport), builds the report of a period,
 * and applies the hub's commands, settings and controls to the breakers. connectToHub sends its reports.
 */
export function createAgent({ service, instance, now = Date.now, allowFaults = false, random = Math.random }: AgentOptions): Agent {
  checkName('service', service);
  checkName('instance', instance);
  const entries = new Map<string, Entry>();
  const faults = new FaultBook(allowFaults, now, random, (name) => entries.get(name)?.adapter);
  /** Transitions since the last report, oldest first, at most the limit (the oldest give way). */
  let pending: { entry: Entry; transition: AgentTransition }[] = [];
  /** When the period the next report covers began (the agent's creation, then each report). */
  let periodStartedAt = now();

  const find = (name: string): Entry => {
    const entry = entries.get(name);
    if (!entry) throw new Error(`no breaker named "${name}" is registered`);
    return entry;
  };

  return {
    service,
    instance,

    register(adapter, options = {}) {
      checkName('a breaker name', adapter.name);
      if (entries.has(adapter.name)) throw new Error(`a breaker named "${adapter.name}" is already registered`);
      if (entries.size >= AGENT_PROTOCOL_LIMITS.breakersPerInstance) {
        throw new RangeError(`an instance reports at most ${AGENT_PROTOCOL_LIMITS.breakersPerInstance} breakers`);
      }
      const window = new RollingWindow(options.boundsMs, adapter.slowCallMs);
      const entry: Entry = { adapter, window, stop: () => undefined, revision: 0, hubOverride: 'none' };
      const stopCalls = adapter.onCall((outcome, durationMs) => window.record(outcome, durationMs));
      const stopTransitions = adapter.onTransition(({ from, to, at, reason }) => {
        if (pending.length >= AGENT_PROTOCOL_LIMITS.transitionsPerReport) pending.shift();
        pending.push({ entry, transition: { from, to, at: new Date(at).toISOString(), reason } });
      });
      entry.stop = () => {
        stopCalls();
        stopTransitions();
      };
      entries.set(adapter.name, entry);
      return () => {
        if (entries.get(adapter.name) !== entry) return;
        faults.forget(adapter.name);
        entry.stop();
        entries.delete(adapter.name);
        pending = pending.filter((item) => item.entry !== entry);
      };
    },

    report() {
      const byEntry = new Map<Entry, AgentTransition[]>();
      for (const { entry, transition } of pending) {
        const list = byEntry.get(entry);
        if (list) list.push(transition);
        else byEntry.set(entry, [transition]);
      }
      pending = [];
      const breakers: AgentBreakerReport[] = [];
      for (const entry of entries.values()) {
        const { adapter } = entry;
        breakers.push({
          name: adapter.name,
          library: adapter.library,
          type: adapter.type,
          settings: adapter.settings(),
          state: adapter.state(),
          override: adapter.override,
          window: entry.window.drain(),
          transitions: byEntry.get(entry) ?? [],
        });
      }
      const at = now();
      const periodMs = Math.max(1, Math.round(at - periodStartedAt));
      periodStartedAt = at;
      // a new id for each report; a connection sends a report again with the same one, so the hub counts it once
      return {
        version: AGENT_PROTOCOL_VERSION,
        id: randomUUID(),
        service,
        instance,
        sentAt: new Date(at).toISOString(),
        periodMs,
        breakers,
        faults: faults.status(),
      };
    },

    async flush(send) {
      await send(this.report());
    },

    command({ name, action }) {
      const { adapter } = find(name);
      const reason = MANUAL_ACTION_TEXT[action].reason;
      if (action === 'force-open') adapter.forceOpen(reason);
      else if (action === 'force-closed') adapter.forceClosed(reason);
      else if (action === 'disable') adapter.disable(reason);
      else adapter.reset(reason);
    },

    changeSettings({ name, settings }) {
      const entry = find(name);
      const result = entry.adapter.applySettings(settings);
      entry.window.slowCallMs = entry.adapter.slowCallMs;
      return result;
    },

    applyControl({ name, revision, resetRevision, settings, override }) {
      const entry = entries.get(name);
      if (!entry || !(revision > entry.revision)) return null;
      const { adapter } = entry;
      if (resetRevision > entry.revision) {
        adapter.reset(MANUAL_ACTION_TEXT.reset.reason);
        entry.hubOverride = 'none';
      }
      const result: ControlResult = { settings: null, refused: null };
      if (settings) {
        try {
          result.settings = this.changeSettings({ name, settings });
        } catch (error) {
          result.refused = error instanceof Error ? error.message : String(error);
        }
      }
      // after a reset the override is none, so this also puts back an override the reset cleared; the hub's none
      // lifts only the override the hub put on (a settings change must not undo what the service set itself)
      if (override !== 'none' && adapter.override !== override) {
        if (override === 'forced-open') adapter.forceOpen(MANUAL_ACTION_TEXT['force-open'].reason);
        else if (override === 'forced-closed') adapter.forceClosed(MANUAL_ACTION_TEXT['force-closed'].reason);
        else adapter.disable(MANUAL_ACTION_TEXT.disable.reason);
      } else if (override === 'none' && entry.hubOverride !== 'none' && adapter.override === entry.hubOverride) {
        adapter.reset(MANUAL_ACTION_TEXT.reset.reason);
      }
      entry.hubOverride = override;
      entry.revision = revision;
      return result;
    },

    names() {
      return [...entries.keys()];
    },

    allowFaults,
    applyFaults: (list) => faults.apply(list),
    dropFaults: () => faults.drop(),
    activeFaults: () => faults.active(),
  };
}
