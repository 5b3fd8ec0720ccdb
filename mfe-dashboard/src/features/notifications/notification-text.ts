import {
  NOTIFICATION_EVENT_LABELS,
  type MaintenanceWindowView,
  type NotificationEventType,
  type RuleView,
  type TestDeliveryView,
} from '@cbh/contracts';

/** 'critical' → 'Critical'. */
export const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** What the receiver answered to "Send test": "Delivered — HTTP 200 in 34 ms", or "Failed — <why>". */
export function testOutcomeText(outcome: TestDeliveryView): string {
  const took = `${Math.round(outcome.durationMs)} ms`;
  if (outcome.status === 'delivered')
    return outcome.statusCode === null ? `Delivered in ${took}` : `Delivered — HTTP ${outcome.statusCode} in ${took}`;
  return `Failed — ${outcome.error ?? `HTTP ${outcome.statusCode ?? 'no answer'}`}`;
}

export const eventLabels = (events: readonly NotificationEventType[]) => events.map((event) => NOTIFICATION_EVENT_LABELS[event]);

/** A rule's filters and limits as short lines; none means every breaker and domain alert of its events. */
export function ruleFilterLines(rule: RuleView): string[] {
  const lines: string[] = [];
  if (rule.breakers.length) lines.push(`Breakers: ${rule.breakers.join(', ')}`);
  if (rule.breakerTypes.length) lines.push(`Types: ${rule.breakerTypes.join(', ')}`);
  if (rule.domains.length) lines.push(`Domains: ${rule.domains.join(', ')}`);
  if (rule.severities.length) lines.push(`Severities: ${rule.severities.map(capitalised).join(', ')}`);
  if (rule.events.includes('breaker.stuck_open')) lines.push(`Stuck: open ${rule.stuckOpenMinutes} min`);
  if (rule.events.includes('breaker.flapping')) lines.push(`Flapping: ${rule.flappingOpenings} openings in ${rule.flappingMinutes} min`);
  return lines;
}

/** What a window mutes: the breakers and domains it names, or everything. */
export function windowScopeText(window: MaintenanceWindowView): string {
  const parts = [
    window.breakers.length ? `Breakers: ${window.breakers.join(', ')}` : '',
    window.domains.length ? `Domains: ${window.domains.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'Everything';
}
