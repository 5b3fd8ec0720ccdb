import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CircuitBreaker, type Transition } from '@cbh/breaker';
import { InstanceRegistry } from '../health/instance-registry.service';
import { type BreakerConfigEntity, toBreakerSettings } from './entities/breaker-config.entity';

/** The live CircuitBreaker of every configuration, in this process; every transition goes to the journal. */
@Injectable()
export class BreakerRegistry {
  private readonly logger = new Logger(BreakerRegistry.name);
  private readonly breakers = new Map<number, CircuitBreaker>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly instance: InstanceRegistry,
  ) {}

  get(configId: number): CircuitBreaker | undefined {
    return this.breakers.get(configId);
  }

  /** A fresh breaker for a new or changed configuration (a changed one starts CLOSED again). */
  install(config: BreakerConfigEntity): CircuitBreaker {
    const breaker = new CircuitBreaker(toBreakerSettings(config));
    breaker.onTransition((transition) => void this.journal(config.id, transition));
    this.breakers.set(config.id, breaker);
    return breaker;
  }

  remove(configId: number) {
    this.breakers.delete(configId);
  }

  private async journal(configId: number, { from, to, reason, at }: Transition) {
    try {
      await this.dataSource.query(
        'INSERT INTO breaker_transitions (config_id, from_state, to_state, reason, instance_id, at) VALUES ($1, $2, $3, $4, $5, $6)',
        [configId, from, to, reason, this.instance.id, new Date(at)],
      );
    } catch (error) {
      // The configuration may have been deleted meanwhile.
      this.logger.warn(`transition of breaker ${configId} not journalled: ${(error as Error).message}`);
    }
  }
}
