import { hasPermission, type AlertGroupState, type AlertGroupSubject, type AlertGroupView, type AuthUser } from '@cbh/contracts';
import { theme } from '@cbh/ui';

/*
 * How the on-call screens speak of alert groups: the colour of each state (beside its words, never alone), the word
 * for each kind of subject, and who may act on a group.
 */

/** Firing red (someone must act), acknowledged amber (someone is on it), silenced grey (held back), resolved green. */
export const ALERT_GROUP_STATE_COLORS: Record<AlertGroupState, string> = {
  firing: theme.colors.open,
  acknowledged: theme.colors.yellow,
  silenced: theme.colors.grey,
  resolved: theme.colors.success,
};

/** The states a group is still open in, in the order the list shows them: what needs someone first. */
export const OPEN_STATES = ['firing', 'acknowledged', 'silenced'] as const satisfies readonly AlertGroupState[];

export const SUBJECT_WORDS: Record<AlertGroupSubject, string> = {
  breaker: 'Breaker',
  domain: 'Domain',
  slo: 'SLO',
  remote: 'Remote',
};

/**
 * Whether `user` may acknowledge, silence or resolve `group`: circuit_breaker_operate, and for a domain's group also
 * domain_management (as the API asks; without it the group is not even listed).
 */
export function canActOn(user: AuthUser | null | undefined, group: Pick<AlertGroupView, 'subject'>): boolean {
  if (!hasPermission(user, 'circuit_breaker_operate')) return false;
  return group.subject.kind !== 'domain' || hasPermission(user, 'domain_management');
}
