/*
 * The operators' manual controls, in a module of their own with no schema: the shell names them in its
 * notifications, and importing breakers.ts would bring zod into its first download.
 */
import { publicName, type NamedPerson } from './public-name';

/** The operators' manual controls, as resilience4j's actuator offers them; each is a POST /api/circuit-breakers/{id}/{action}. */
export const MANUAL_ACTIONS = ['force-open', 'force-closed', 'disable', 'reset'] as const;
export type ManualAction = (typeof MANUAL_ACTIONS)[number];

/** Each control's button, what its confirmation says it does to live traffic, and the transition reason's verb. */
export const MANUAL_ACTION_TEXT: Record<ManualAction, { label: string; effect: string; done: string; reason: string }> = {
  'force-open': {
    label: 'Force open',
    effect: 'Every call through this breaker is refused at once, on every replica, until it is reset or forced closed.',
    done: 'Breaker forced open',
    reason: 'forced open',
  },
  'force-closed': {
    label: 'Force closed',
    effect: 'Every call goes through, on every replica, however many fail: failures cannot open it until it is reset.',
    done: 'Breaker forced closed',
    reason: 'forced closed',
  },
  disable: {
    label: 'Disable',
    effect: 'The breaker stops protecting: every call goes through unguarded on every replica and it counts nothing until it is reset.',
    done: 'Breaker disabled',
    reason: 'disabled',
  },
  reset: {
    label: 'Reset',
    effect: 'Back to CLOSED with its counts and any override cleared on every replica: calls flow again and failures count afresh.',
    done: 'Breaker reset',
    reason: 'reset',
  },
};

/**
 * The journal's reason for a manual control, naming who used it by name or role ('forced open by Omar Lovelace'):
 * every holder of circuit_breaker_view reads the journal and its live messages, and only audit_access holders may
 * see the e-mail address behind an action (the audit trail names the actor).
 */
export function manualReason(action: ManualAction, actor: NamedPerson): string {
  return `${MANUAL_ACTION_TEXT[action].reason} by ${publicName(actor)}`;
}
