import type { AlertSeverity, BreakerTypeName, NotificationSubjectKind, RuleEventType } from '@cbh/contracts';

/** An event as the outbox holds it. */
export interface OutboxEvent {
  id: string;
  type: RuleEventType;
  subjectKind: NotificationSubjectKind;
  subjectId: number;
  subjectName: string;
  occurredAt: Date;
  data: Record<string, unknown>;
  /** Set on an event one rule asked for (a breaker stuck open past that rule's minutes). */
  ruleId: string | null;
}

export interface RuleFilters {
  id: string;
  events: readonly RuleEventType[];
  breakers: readonly string[];
  breakerTypes: readonly BreakerTypeName[];
  domains: readonly string[];
  severities: readonly AlertSeverity[];
}

const lower = (names: readonly string[]) => names.map((name) => name.toLowerCase());

/**
 * Whether a rule's filters let an event's subject through: breaker names and types apply to breaker events, domain
 * names and alert severities to domain events, none to release events; an empty filter lets everything through.
 */
export function filtersPass(rule: RuleFilters, event: OutboxEvent): boolean {
  if (event.ruleId !== null && event.ruleId !== rule.id) return false;
  if (event.subjectKind === 'breaker') {
    const type = (event.data.breaker as { type?: BreakerTypeName } | undefined)?.type;
    if (rule.breakers.length > 0 && !lower(rule.breakers).includes(event.subjectName.toLowerCase())) return false;
    if (rule.breakerTypes.length > 0 && (!type || !rule.breakerTypes.includes(type))) return false;
    return true;
  }
  // a release event is about a remote: no breaker or domain filter applies to it
  if (event.subjectKind === 'remote') return true;
  const severity = (event.data.alert as { severity?: AlertSeverity } | undefined)?.severity;
  if (rule.domains.length > 0 && !lower(rule.domains).includes(event.subjectName.toLowerCase())) return false;
  if (rule.severities.length > 0 && (!severity || !rule.severities.includes(severity))) return false;
  return true;
}

/**
 * The event types a rule would send for an event, before muting and its minimum interval: the event's own type if
 * the rule names it, and `breaker.flapping` for an opening when the rule watches for flapping (whether the breaker
 * is flapping is counted by the caller).
 */
export function typesFor(rule: RuleFilters, event: OutboxEvent): { own: boolean; flapping: boolean } {
  if (!filtersPass(rule, event)) return { own: false, flapping: false };
  return {
    own: rule.events.includes(event.type),
    flapping: event.type === 'breaker.opened' && rule.events.includes('breaker.flapping'),
  };
}
