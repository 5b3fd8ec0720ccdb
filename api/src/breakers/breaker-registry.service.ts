import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CircuitBreaker, PEER_REASON, type Transition } from '@cbh/breaker';
import { InstanceRegistry } from '../replicas/instance-registry.service';
import { RealtimeBus } from '../bus/realtime-bus.service';
import { type BreakerConfigFields, toBreakerSettings } from './entities/breaker-config.entity';
import type { BreakerSettings } from '@cbh/breaker';

const sameSettings = (a: BreakerSettings | undefined, b: BreakerSettings) => a !== undefined && JSON.stringify(a) === JSON.stringify(b);

/**
 * The live CircuitBreaker of every configuration in this process. Every transition goes to the journal and to
 * every replica as stateChange; a breaker that opens on another replica opens here too.
 */
@Injectable()
export class BreakerRegistry implements OnModuleInit {
  private readonly logger = new Logger(BreakerRegistry.name);
  private readonly breakers = new Map<number, CircuitBreaker>();
  private readonly names = new Map<number, string>();

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

  get(configId: number): CircuitBreaker | undefined {
    return this.breakers.get(configId);
  }

  entries(): [number, CircuitBreaker][] {
    return [...this.breakers.entries()];
  }

  /** A fresh breaker for a new or changed configuration (a changed one starts CLOSED again). */
  install(config: BreakerConfigFields): CircuitBreaker {
    const breaker = new CircuitBreaker(toBreakerSettings(config));
    breaker.onTransition((transition) => void this.announce(config.id, transition));
    this.breakers.set(config.id, breaker);
    this.names.set(config.id, config.name);
    return breaker;
  }

  remove(configId: number) {
    this.breakers.delete(configId);
    this.names.delete(configId);
  }

  nameOf(configId: number): string {
    return this.names.get(configId) ?? String(configId);
  }

  private async announce(configId: number, { from, to, reason, at }: Transition) {
    try {
      // Announced and journalled at once: the live message does not wait for the journal.
      await Promise.all([
        reason === PEER_REASON
          ? undefined
          : this.bus.publish({ type: 'stateChange', data: { configId, from, to, reason, at: new Date(at).toISOString(), instanceId: this.instance.id } }),
        this.dataSource.query(
          'INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, instance_id, at) VALUES ($1, $2, $3, $4, $5, $6)',
          [configId, from, to, reason, this.instance.id, new Date(at)],
        ),
      ]);
    } catch (error) {
      // The configuration may have been deleted meanwhile.
      this.logger.warn(`transition of breaker ${configId} not announced: ${(error as Error).message}`);
    }
  }
}
