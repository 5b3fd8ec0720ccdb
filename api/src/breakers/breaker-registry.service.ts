import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CircuitBreaker, PEER_CLOSE_REASON, PEER_REASON, type Transition } from '@cbh/breaker';
import type { BreakerOverride, BreakerSettings, BreakerSource, BreakerTransition, ManualAction } from '@cbh/contracts';
import { InstanceRegistry, RealtimeBus } from '../platform';
import { BreakerConfigEntity, type BreakerConfigFields, toBreakerSettings } from './entities/breaker-config.entity';
import { TransitionJournal } from './transition-journal';

const sameSettings = (a: BreakerSettings | undefined, b: BreakerSettings) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

/** Applies a manual control to a breaker, with the reason the journal gives. */
export function applyManual(breaker: CircuitBreaker, action: ManualAction, reason: string) {
  if (action === 'force-open') breaker.forceOpen(reason);
  else if (action === 'force-closed') breaker.forceClosed(reason);
  else if (action === 'disable') breaker.disable(reason);
  else breaker.reset(reason);
}

/** The control that leaves a breaker under each override (a replica that catches up with a row applies it). */
const CONTROL_TO: Record<BreakerOverride, ManualAction> = {
  none: 'reset',
  'forced-open': 'force-open',
  'forced-closed': 'force-closed',
  disabled: 'disable',
};

/** A configuration as a replica applies it: the row, or its view as another replica announced it. */
export type AppliedConfig = BreakerConfigFields & { name: string; source?: BreakerSource };

/**
 * A manual control as a replica applies it: journalled only by the replica an operator asked (journal: true),
 * whose stateChange carries the id of the operator's account.
 */
export interface AppliedControl {
  action: ManualAction;
  reason: string;
  journal: boolean;
  actorId?: string;
}

/**
 * The live CircuitBreaker of every configuration in this process, kept in step with the other replicas:
 * - Every move of a breaker's own goes to the journal and to every replica as stateChange. A breaker that opens on
 *   another replica opens here too, until the same moment, and closes when that replica's trial calls close it;
 *   those followed moves are that replica's story, so they are neither journalled nor announced here.
 * - Configuration changes and manual controls carry the row's version, raised under the row's lock: a replica
 *   applies a change only if it is newer than the one it has, so changes that cross in flight still leave every
 *   replica where the database is, and a deleted configuration stays deleted (a tombstone) whatever arrives late.
 *   After its LISTEN connection comes back, a replica re-reads every configuration for what it may have missed.
 * - Reading a breaker never moves it, so an open breaker is ticked when its open period ends: views show HALF_OPEN
 *   on time and the journal records the move then, whether or not a call comes.
 */
@Injectable()
export class BreakerRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(BreakerRegistry.name);
  private readonly breakers = new Map<number, CircuitBreaker>();
  private readonly names = new Map<number, string>();
  private readonly versions = new Map<number, number>();
  private readonly deleted = new Set<number>();
  private readonly halfOpenTimers = new Map<number, NodeJS.Timeout>();
  /** Set while following another replica's manual control: those moves are that replica's to journal. */
  private following = false;
  /** Set while applying a manual control an operator asked of this replica: the account, named in its stateChange. */
  private actorId?: string;
  /** The journal write of the move each breaker is announcing now (see journalled). */
  private readonly journalling = new Map<number, Promise<void>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly instance: InstanceRegistry,
    private readonly bus: RealtimeBus,
    private readonly journal: TransitionJournal,
  ) {}

  onModuleInit() {
    this.bus.subscribe(({ origin, message }) => {
      if (origin === this.instance.id) return;
      if (message.type === 'stateChange') {
        const breaker = this.breakers.get(message.data.configId);
        // a manual control reaches the other replicas as configUpdated, which they follow as the control itself
        if (!breaker || (message.data.override && message.data.override !== 'none')) return;
        if (message.data.to === 'OPEN') {
          const until = message.data.openUntil
            ? Date.parse(message.data.openUntil)
            : Date.parse(message.data.at) + breaker.settings.timeout;
          breaker.openUntilFromPeer(until);
        }
        if (message.data.from === 'HALF_OPEN' && message.data.to === 'CLOSED') breaker.closeFromPeer();
      }
      if (message.type === 'configUpdated') {
        const { configId, config, manual } = message.data;
        if (!config) this.remove(configId);
        else this.apply(config, manual && { ...manual, journal: false });
      }
    });
    this.bus.onReconnect(
      () => void this.reload().catch((error: Error) => this.logger.warn(`configurations not re-read: ${error.message}`)),
    );
  }

  onModuleDestroy() {
    for (const timer of this.halfOpenTimers.values()) clearTimeout(timer);
    this.halfOpenTimers.clear();
  }

  /**
   * Settles once the move the breaker is announcing now, if any, is journalled: its stateChange is published in that
   * same turn, so what is published on it then (a control's configUpdated) leaves in the same NOTIFY.
   */
  journalled(configId: number): Promise<void> | undefined {
    return this.journalling.get(configId);
  }

  get(configId: number): CircuitBreaker | undefined {
    return this.breakers.get(configId);
  }

  entries(): [number, CircuitBreaker][] {
    return [...this.breakers.entries()];
  }

  nameOf(configId: number): string {
    return this.names.get(configId) ?? String(configId);
  }

  /**
   * Brings this replica's breaker to a configuration, if the configuration is newer than the one it follows: a
   * changed setting builds a fresh breaker (CLOSED again, under the override); a manual control is applied to the
   * running breaker (see AppliedControl).
   */
  apply(config: AppliedConfig, manual?: AppliedControl): CircuitBreaker | undefined {
    // an agent's or scraped breaker runs in its service: the hub holds no engine for it (see FleetCatalog)
    if (this.deleted.has(config.id) || (config.source !== undefined && config.source !== 'hub')) return undefined;
    const current = this.breakers.get(config.id);
    if (current && config.version <= (this.versions.get(config.id) ?? -1)) return current;
    this.versions.set(config.id, config.version);
    this.names.set(config.id, config.name);
    if (!current || !sameSettings(current.settings, toBreakerSettings(config))) return this.install(config, current);
    if (manual) this.control(current, manual);
    else if (current.override !== config.override) current.restore({ override: config.override });
    return current;
  }

  /**
   * Brings this replica's breaker to a row read from the database, which may be newer than the messages that reached
   * this replica: a control another replica committed meanwhile is followed as that control (its replica journals
   * it), so that the breaker is where the database says, its counts and all, and a control applied next moves it
   * from there. (A message of a change already caught up with is older than the row, and ignored.)
   */
  catchUp(config: AppliedConfig): CircuitBreaker | undefined {
    const current = this.breakers.get(config.id);
    const missed = current && current.override !== config.override;
    return this.apply(config, missed ? { action: CONTROL_TO[config.override], reason: 'caught up', journal: false } : undefined);
  }

  /** Forgets a deleted configuration for good: a late message about it does not bring it back. */
  remove(configId: number) {
    this.deleted.add(configId);
    this.clearHalfOpen(configId);
    this.breakers.delete(configId);
    this.names.delete(configId);
    this.versions.delete(configId);
  }

  /** Every configuration as the database has it now: at start, and after the fan-out was lost for a while. */
  async reload(lastMoves = new Map<number, number>()) {
    const rows = await this.dataSource.getRepository(BreakerConfigEntity).find({ where: { source: 'hub' } });
    const present = new Set(rows.map((row) => row.id));
    for (const configId of this.breakers.keys()) if (!present.has(configId)) this.remove(configId);
    for (const row of rows) this.catchUp(row)?.restore(lastMoves.has(row.id) ? { lastTransitionAt: lastMoves.get(row.id)! } : {});
  }

  /** A fresh breaker for a configuration, keeping the previous one's time of its last move. */
  private install(config: AppliedConfig, previous?: CircuitBreaker): CircuitBreaker {
    const breaker = new CircuitBreaker(toBreakerSettings(config));
    breaker.restore({ override: config.override, lastTransitionAt: previous?.lastTransitionAt ?? null });
    breaker.onTransition((transition) => {
      this.scheduleHalfOpen(config.id, breaker);
      if (!this.following && !this.followed(breaker, transition)) void this.announce(config.id, transition, breaker, this.actorId);
    });
    this.clearHalfOpen(config.id);
    this.breakers.set(config.id, breaker);
    return breaker;
  }

  /** A move this breaker made only because another replica's breaker did: that replica journals it. */
  private followed(breaker: CircuitBreaker, { to, reason }: Transition) {
    return reason === PEER_REASON || reason === PEER_CLOSE_REASON || (to === 'HALF_OPEN' && breaker.followsPeer);
  }

  private control(breaker: CircuitBreaker, { action, reason, journal, actorId }: AppliedControl) {
    this.following = !journal;
    this.actorId = actorId;
    try {
      applyManual(breaker, action, reason);
    } finally {
      this.following = false;
      this.actorId = undefined;
    }
  }

  /**
   * An open breaker moves to HALF_OPEN when its open period ends; its next transition replaces the wait. A
   * breaker already replaced (a call that started before a settings change ends on the old one) leaves the
   * current breaker's wait alone.
   */
  private scheduleHalfOpen(configId: number, breaker: CircuitBreaker) {
    if (this.breakers.get(configId) !== breaker) return;
    this.clearHalfOpen(configId);
    const due = breaker.nextAttemptAt;
    if (due === null) return;
    const timer = setTimeout(
      () => {
        this.halfOpenTimers.delete(configId);
        // a breaker replaced or removed meanwhile is no longer this configuration's; a timer may fire a
        // millisecond before the wall clock reaches the due time, which still counts as due
        if (this.breakers.get(configId) === breaker) breaker.tick(Math.max(Date.now(), due));
      },
      Math.max(0, due - Date.now()),
    );
    timer.unref();
    this.halfOpenTimers.set(configId, timer);
  }

  private clearHalfOpen(configId: number) {
    clearTimeout(this.halfOpenTimers.get(configId));
    this.halfOpenTimers.delete(configId);
  }

  private async announce(configId: number, { from, to, reason, at }: Transition, breaker: CircuitBreaker, actorId?: string) {
    const transition: BreakerTransition = { configId, from, to, reason, at: new Date(at).toISOString(), instanceId: this.instance.id };
    const openUntil = to === 'OPEN' && breaker.nextAttemptAt !== null ? new Date(breaker.nextAttemptAt).toISOString() : undefined;
    const override: BreakerOverride = breaker.override;
    // Journalled, then announced: a screen that reads the journal again on the live message (the dashboard's last
    // transitions) finds the move there. Through a database outage the journal keeps the move and the live message,
    // sent over the database, is lost: screens catch up from the next metricsUpdate.
    const journalled = this.journal.write(transition);
    this.journalling.set(configId, journalled);
    await journalled;
    if (this.journalling.get(configId) === journalled) this.journalling.delete(configId);
    await this.bus
      .publish({
        type: 'stateChange',
        data: { ...transition, override, ...(openUntil ? { openUntil } : {}), ...(actorId ? { actorId } : {}) },
      })
      .catch((error: Error) => this.logger.warn(`transition of breaker ${configId} not announced: ${error.message}`));
  }
}
