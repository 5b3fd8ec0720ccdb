import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { NOTIFICATION_EVENT_LABELS, type AlertGroupSubject, type RaisedEventType } from '@cbh/contracts';
import { OutboxEscalations, type EscalationHandler, type EscalationRoute, type OutboxEvent } from '../notifications';
import { AlertGroupJournal } from './alert-group-journal';
import { AlertGroupsRepository } from './alert-groups.repository';
import type { AlertGroupEntity } from './entities/alert-group.entity';

/** The subjects alert groups gather (status pages' incidents are told, never paged). */
const GROUPED: ReadonlySet<string> = new Set<AlertGroupSubject>(['breaker', 'domain', 'remote', 'slo']);
/** A subject's recovery resolves its group. */
const RECOVERIES: ReadonlySet<RaisedEventType> = new Set<RaisedEventType>(['breaker.recovered', 'domain.alert.resolved', 'slo.recovered']);

/** One line for a group's title and timeline: what happened to what. */
export function eventTitle(event: OutboxEvent): string {
  const service = (event.data.breaker as { service?: string | null } | undefined)?.service;
  const name = service ? `${event.subjectName} (${service})` : event.subjectName;
  const alert = (event.data.alert as { message?: string } | undefined)?.message;
  // an SLO's burn says how fast, over which window
  const burn =
    event.type === 'slo.burn_rate' ? ` — ${event.data.severity}: ${Number(event.data.burnRate).toFixed(1)}× over ${event.data.window}` : '';
  return `${NOTIFICATION_EVENT_LABELS[event.type]}: ${name}${alert ? ` — ${alert}` : ''}${burn}`;
}

/**
 * Hears every event the outbox fans out, in its transaction (so once across replicas): a recovery resolves its
 * subject's open group; any other event joins the open group of its subject, else the open group of something it
 * depends on (as caused by it: no page), else — when a rule routed it to an escalation policy — opens a group whose
 * first step is due at once.
 */
@Injectable()
export class AlertGroupRouter implements EscalationHandler, OnModuleInit {
  constructor(
    private readonly escalations: OutboxEscalations,
    private readonly repository: AlertGroupsRepository,
    private readonly journal: AlertGroupJournal,
  ) {}

  onModuleInit() {
    this.escalations.register(this);
  }

  async onEvent(manager: EntityManager, event: OutboxEvent, routes: EscalationRoute[]): Promise<void> {
    if (!GROUPED.has(event.subjectKind)) return;
    const text = eventTitle(event);
    const own = await this.repository.openGroupOf(manager, event.subjectKind, event.subjectId);
    if (own) {
      if (RECOVERIES.has(event.type)) return this.resolveByRecovery(manager, own, event, text);
      own.eventCount++;
      await this.journal.entry(manager, own, { kind: 'event', text, eventType: event.type });
      return this.journal.save(manager, own);
    }
    if (event.subjectKind === 'breaker') {
      const parent = await this.repository.parentGroupOf(manager, event.subjectId);
      if (parent) {
        parent.causedCount++;
        const subject = { kind: 'breaker' as const, id: event.subjectId, name: event.subjectName };
        await this.journal.entry(manager, parent, { kind: 'caused', text, eventType: event.type, subject });
        return this.journal.save(manager, parent);
      }
    }
    if (RECOVERIES.has(event.type) || routes.length === 0) return;
    // several rules may route one event: the first by name decides the policy, the same on every replica
    const route = [...routes].sort((a, b) => a.ruleName.localeCompare(b.ruleName))[0]!;
    const { group, opened } = await this.repository.openOrFind(manager, {
      subject: { kind: event.subjectKind as AlertGroupSubject, id: event.subjectId, name: event.subjectName },
      service: (event.data.breaker as { service?: string | null } | undefined)?.service ?? null,
      title: text,
      policyId: route.policyId,
      ruleId: route.ruleId,
      openingType: event.type,
      openingData: event.data,
    });
    if (!opened) {
      group.eventCount++;
      await this.journal.entry(manager, group, { kind: 'event', text, eventType: event.type });
      return this.journal.save(manager, group);
    }
    await this.journal.entry(manager, group, { kind: 'opened', text: `${text} (rule ${route.ruleName})`, eventType: event.type });
    await this.repository.announce(manager, group);
  }

  private async resolveByRecovery(manager: EntityManager, group: AlertGroupEntity, event: OutboxEvent, text: string) {
    group.state = 'resolved';
    group.resolvedAt = new Date();
    group.resolvedBy = 'recovery';
    group.nextStepAt = null;
    group.eventCount++;
    await this.journal.entry(manager, group, { kind: 'resolved', text: `Resolved: ${text}`, eventType: event.type, actor: 'recovery' });
    await this.journal.save(manager, group);
    await this.journal.raise(manager, group, 'alert_group.resolved', { by: 'recovery' });
  }
}
