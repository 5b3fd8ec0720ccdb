import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CircuitBreaker, PEER_CLOSE_REASON, PEER_REASON, type Transition } from '@cbh/breaker';
import type { BreakerOverride, BreakerSettings, BreakerTransition, ManualAction } from '@cbh/contracts';
import { InstanceRegistry } from '../replicas/instance-registry.service';
import { RealtimeBus } from '../bus/realtime-bus.service';
import { type BreakerConfigFields, toBreakerSettings } from './entities/breaker-config.entity';
import { BreakerTransitionEntity } from './entities/breaker-transition.entity';

const sameSettings = (a: BreakerSettings | undefined, b: BreakerSettings) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

/** Applies a manual control to a breaker, with the reason the journal gives. */
export function applyManual(breaker: CircuitBreaker, action: ManualAction, reason: string) {
  if (action === 'force-open') breaker.forceOpen(reason);
  else if (action === 'force-closed') breaker.forceClosed(reason);
  else if (action === 'disable') breaker.disable(reason);
  else breaker.reset(reason);
}

const OVERRIDE_ACTION: Record<Exclude<BreakerOverride, 'none'>, ManualAction> = {
  'forced-open': 'force-open',
  'forced-closed': 'force-closed',
  disabled: 'disable',
};

/**
 * The live CircuitBreaker of every configuration in this process. Every transition goes to the journal and to
 * every replica as stateChange; a breaker that opens on another replica opens here too, and one still testing
 * recovery here closes when another replica's trial calls closed it, so the replicas agree. A manual control
 * acts on every replica, but only the replica that took it journals it. Reading a breaker never moves it, so an
 * open breaker is ticked when its open period ends: views show HALF_OPEN on time and the journal records the
 * move then, whether or not a call comes.
 */
@Injectable()
export class BreakerRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(BreakerRegistry.name);
  private readonly breakers = new Map<number, CircuitBreaker>();
  private readonly names = new Map<number, string>();
  private readonly halfOpenTimers = new Map<number, NodeJS.Timeout>();
  /** Set while following another replica's manual control: those moves are that replica's to journal. */
  private following = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly instance: InstanceRegistry,
    private readonly bus: RealtimeBus,
  ) {}

  onModuleInit() {
    this.bus.subscribe(({ origin, message }) => {
      if (origin === this.instance.id) return;
      if (message.type === 'stateChange') {
        const breaker = this.breakers.get(message.data.configId);
        // a manual control reaches the other replicas as configUpdated, which they follow as the control itself
        if (message.data.override && message.data.override !== 'none') return;
        if (message.data.to === 'OPEN') breaker?.openUntilFromPeer(Date.parse(message.data.at) + breaker.settings.timeout);
        if (message.data.from === 'HALF_OPEN' && message.data.to === 'CLOSED') breaker?.closeFromPeer();
      }
      if (message.type === 'configUpdated') {
        // Another replica created, changed or deleted a configuration, or used a manual control: follow it.
        const { configId, config, manual } = message.data;
        if (!config) this.remove(configId);
        else if (!sameSettings(this.breakers.get(configId)?.settings, toBreakerSettings(config))) this.install(config);
        else {
          this.names.set(configId, config.name);
          if (manual) this.control(configId, manual.action, manual.reason, { journal: false });
        }
      }
    });
  }

  onModuleDestroy() {
    for (const timer of this.halfOpenTimers.values()) clearTimeout(timer);
    this.halfOpenTimers.clear();
  }

  get(configId: number): CircuitBreaker | undefined {
    return this.breakers.get(configId);
  }

  entries(): [number, CircuitBreaker][] {
    return [...this.breakers.entries()];
  }

  /**
   * A fresh breaker for a new or changed configuration: a changed one starts CLOSED again, under the operator's
   * override if one is set (applied before anyone listens: it is no transition of this breaker's).
   */
  install(config: BreakerConfigFields): CircuitBreaker {
    const breaker = new CircuitBreaker(toBreakerSettings(config));
    if (config.override !== 'none') applyManual(breaker, OVERRIDE_ACTION[config.override], config.override);
    breaker.onTransition((transition) => {
      this.scheduleHalfOpen(config.id, breaker);
      if (!this.following) void this.announce(config.id, transition, breaker.override);
    });
    this.clearHalfOpen(config.id);
    this.breakers.set(config.id, breaker);
    this.names.set(config.id, config.name);
    return breaker;
  }

  /**
   * Applies a manual control here. The replica an operator asked journals and announces the moves; the others
   * follow quietly, so the journal holds each control once.
   */
  control(configId: number, action: ManualAction, reason: string, { journal }: { journal: boolean }) {
    const breaker = this.breakers.get(configId);
    if (!breaker) return;
    this.following = !journal;
    try {
      applyManual(breaker, action, reason);
    } finally {
      this.following = false;
    }
  }

  remove(configId: number) {
    this.clearHalfOpen(configId);
    this.breakers.delete(configId);
    this.names.delete(configId);
  }

  nameOf(configId: number): string {
    return this.names.get(configId) ?? String(configId);
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

  private async announce(configId: number, { from, to, reason, at }: Transition, override: BreakerOverride) {
    const transition: BreakerTransition = { configId, from, to, reason, at: new Date(at).toISOString(), instanceId: this.instance.id };
    try {
      // Announced and journalled at once: the live message does not wait for the journal.
      await Promise.all([
        reason === PEER_REASON || reason === PEER_CLOSE_REASON
          ? undefined
          : this.bus.publish({ type: 'stateChange', data: { ...transition, override } }),
        this.dataSource.getRepository(BreakerTransitionEntity).insert({ ...transition, at: new Date(at) }),
      ]);
    } catch (error) {
      // The configuration may have been deleted meanwhile.
      this.logger.warn(`transition of breaker ${configId} not announced: ${(error as Error).message}`);
    }
  }
}
