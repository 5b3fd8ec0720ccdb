import {
  EVENTS_CAPPED_EVENT,
  isDomainEvent,
  parseBreakerRef,
  type AlertSeverity,
  type BreakerSource,
  type BreakerTypeName,
  type NotificationSubjectKind,
  type RaisedEventType,
  type RuleEventType,
} from '@cbh/contracts';

/** An event as the outbox holds it. */
export interface OutboxEvent {
  id: string;
  type: RaisedEventType;
  subjectKind: NotificationSubjectKind;
  subjectId: number;
  subjectName: string;
  occurredAt: Date;
  /** When the hub took the event: what a rule's minimum interval is judged on (a reported move's time is its agent's). */
  receivedAt: Date;
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

type EventBreaker = { type?: BreakerTypeName; source?: BreakerSource; service?: string | null };

/**
 * Whether a rule's breaker filter names the event's breaker: a plain name names the hub's own breaker of that name
 * only (an agent could otherwise report a breaker of the same name and set off the rule), `agent:<service>/<name>`
 * and `scrape:<service>/<name>` that service's breaker. A breaker.events_capped event, about a whole service, is
 * named by any entry naming one of that service's breakers.
 */
export function namesBreaker(entries: readonly string[], event: OutboxEvent): boolean {
  const breaker = event.data.breaker as EventBreaker | undefined;
  const source = breaker?.source ?? 'hub';
  const service = (breaker?.service ?? '').toLowerCase();
  const name = event.subjectName.toLowerCase();
  return entries.some((entry) => {
    const ref = parseBreakerRef(entry);
    if (ref.source !== source) return false;
    if (source !== 'hub' && ref.service!.toLowerCase() !== service) return false;
    return event.type === EVENTS_CAPPED_EVENT ? source !== 'hub' : ref.name.toLowerCase() === name;
  });
}

/**
 * Whether a rule's filters let an event's subject through: breaker names and types apply to breaker events, domain
 * names and alert severities to domain events, none to release or drill events; an empty filter lets everything through.
 */
export function filtersPass(rule: RuleFilters, event: OutboxEvent): boolean {
  if (event.ruleId !== null && event.ruleId !== rule.id) return false;
  if (event.subjectKind === 'breaker') {
    const breaker = event.data.breaker as EventBreaker | undefined;
    if (rule.breakers.length > 0 && !namesBreaker(rule.breakers, event)) return false;
    // a service's cap is about all its breakers, whatever their type
    if (event.type === EVENTS_CAPPED_EVENT) return true;
    if (rule.breakerTypes.length > 0 && (!breaker?.type || !rule.breakerTypes.includes(breaker.type))) return false;
    return true;
  }
  // a release event is about a remote, an incident about a status page, a drill about several breakers at once: no
  // breaker or domain filter applies to them
  if (event.subjectKind === 'remote' || event.subjectKind === 'status_page' || event.subjectKind === 'drill') return true;
  // a domain's alert group is told only to rules that may route domain events (made by holders of domain_management)
  if (event.subjectKind === 'alert_group') {
    const subject = (event.data.alertGroup as { subject?: { kind?: string } } | undefined)?.subject;
    return subject?.kind !== 'domain' || rule.events.some((type) => isDomainEvent(type));
  }
  // an SLO names its own breakers or domains: no filter applies; a domain SLO's events go only to rules that may route domain events
  if (event.subjectKind === 'slo') {
    return (event.data.slo as { kind?: string } | undefined)?.kind !== 'domain-uptime' || rule.events.some((type) => isDomainEvent(type));
  }
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
  if (event.type === EVENTS_CAPPED_EVENT) {
    // it stands for the openings and recoveries it held back: it goes where they would have gone
    return { own: rule.events.includes('breaker.opened') || rule.events.includes('breaker.recovered'), flapping: false };
  }
  return {
    own: rule.events.includes(event.type as RuleEventType),
    flapping: event.type === 'breaker.opened' && rule.events.includes('breaker.flapping'),
  };
}
