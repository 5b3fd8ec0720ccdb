import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { RaisedEventType } from '@cbh/contracts';
import type { OutboxEvent } from './rule-matching';

/** A rule that let an event through and names an escalation policy. */
export interface EscalationRoute {
  ruleId: string;
  ruleName: string;
  policyId: string;
}

/**
 * What the on-call context registers to hear every event the outbox fans out, in the fan-out's transaction: the rules
 * that route it to an escalation policy (none for most), so that it opens or joins an alert group, or resolves one on
 * a recovery, exactly once across replicas. The arrow points down: the handler knows the outbox, never the other way.
 */
export interface EscalationHandler {
  onEvent(manager: EntityManager, event: OutboxEvent, routes: EscalationRoute[]): Promise<void>;
}

/** Events an alert group raises itself: they never open or join a group (a group acknowledged must not page again). */
const OWN_EVENTS: readonly RaisedEventType[] = ['alert_group.acknowledged', 'alert_group.escalated', 'alert_group.resolved'];

@Injectable()
export class OutboxEscalations {
  private handler?: EscalationHandler;

  register(handler: EscalationHandler) {
    this.handler = handler;
  }

  async onEvent(manager: EntityManager, event: OutboxEvent, routes: EscalationRoute[]): Promise<void> {
    if (!this.handler || OWN_EVENTS.includes(event.type) || event.subjectKind === 'status_page') return;
    await this.handler.onEvent(manager, event, routes);
  }
}
