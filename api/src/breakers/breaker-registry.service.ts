import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CircuitBreaker, PEER_REASON, type Transition } from '@cbh/breaker';
import type { BreakerSettings, BreakerTransition } from '@cbh/contracts';
import { InstanceRegistry } from '../replicas/instance-registry.service';
import { RealtimeBus } from '../bus/realtime-bus.service';
import { type BreakerConfigFields, toBreakerSettings } from './entities/breaker-config.entity';
import { BreakerTransitionEntity } from './entities/breaker-transition.entity';

const sameSettings = (a: BreakerSettings | undefined, b: BreakerSettings) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

/**
 * The live CircuitBreaker of every configuration in this process. Every transition goes to the journal and to
 * every replica as stateChange; a breaker that opens on another replica opens here too. Reading a breaker
 * never moves it, so an open breaker is ticked when its open period ends: views show HALF_OPEN on time and the
 * journal records the move then, whether or not a call comes.
 */
@Injectable()
export class BreakerRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(BreakerRegistry.name);
  private readonly breakers = new Map<number, CircuitBreaker>();
  private readonly names = new Map<number, string>();
  private readonly halfOpenTimers = new Map<number, NodeJS.Timeout>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly instance: InstanceRegistry,
    private readonly bus: RealtimeBus,
  ) {}

  onModuleInit() {
    this.bus.subscribe(({ origin, message }) => {
      if (origin === this.instance.id) return;
      if (message.type === 'stateChange' && message.data.to === 'OPEN') {
        const breaker = this.breakers.get(message.data.configId);
        breaker?.openUntilFromPeer(Date.parse(message.data.at) + breaker.settings.timeout);
      }
      if (message.type === 'configUpdated') {
        // Another replica created, changed or deleted a configuration: follow it (a manual action changes no setting).
        const { configId, config } = message.data;
        if (!config) this.remove(configId);
        else if (!sameSettings(this.breakers.get(configId)?.settings, toBreakerSettings(config))) this.install(config);
        else this.names.set(configId, config.name);
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

  /** A fresh breaker for a new or changed configuration (a changed one starts CLOSED again). */
  install(config: BreakerConfigFields): CircuitBreaker {
    const breaker = new CircuitBreaker(toBreakerSettings(config));
    breaker.onTransition((transition) => {
      this.scheduleHalfOpen(config.id, breaker);
      void this.announce(config.id, transition);
    });
    this.clearHalfOpen(config.id);
    this.breakers.set(config.id, breaker);
    this.names.set(config.id, config.name);
    return breaker;
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

  private async announce(configId: number, { from, to, reason, at }: Transition) {
    const transition: BreakerTransition = { configId, from, to, reason, at: new Date(at).toISOString(), instanceId: this.instance.id };
    try {
      // Announced and journalled at once: the live message does not wait for the journal.
      await Promise.all([
        reason === PEER_REASON ? undefined : this.bus.publish({ type: 'stateChange', data: transition }),
        this.dataSource.getRepository(BreakerTransitionEntity).insert({ ...transition, at: new Date(at) }),
      ]);
    } catch (error) {
      // The configuration may have been deleted meanwhile.
      this.logger.warn(`transition of breaker ${configId} not announced: ${(error as Error).message}`);
    }
  }
}
