import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { NotificationDeliveryEntity } from './entities/notification-delivery.entity';
import type { OutboxEvent } from './rule-matching';
import type { SendOutcome } from './senders/channel-sender.types';

/**
 * An audience other than the channels that an event reaches through the outbox: a context above this one (status
 * pages' subscribers) registers one, and the outbox fans each event out to its recipients in the same transaction
 * as to the channels and delivers to them with the same leases and retries — once each across replicas. The arrow
 * points down: the audience knows the outbox, never the other way.
 */
export interface OutboxAudience {
  /** stored on each delivery (`audience`); lower_snake_case */
  readonly name: string;
  /** The recipients of an event, read in the fan-out's transaction; each becomes one delivery addressed to it. */
  recipientsOf(manager: EntityManager, event: OutboxEvent): Promise<{ recipient: string; label: string }[]>;
  /** One try of one delivery to one recipient. */
  send(delivery: NotificationDeliveryEntity): Promise<SendOutcome>;
}

/** The audiences registered on this replica (each replica's modules register the same ones at start). */
@Injectable()
export class OutboxAudiences {
  private readonly audiences = new Map<string, OutboxAudience>();

  register(audience: OutboxAudience) {
    this.audiences.set(audience.name, audience);
  }

  all(): OutboxAudience[] {
    return [...this.audiences.values()];
  }

  named(name: string): OutboxAudience | undefined {
    return this.audiences.get(name);
  }
}
