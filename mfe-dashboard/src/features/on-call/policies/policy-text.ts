import type { ChannelView, EscalationPolicyView } from '@cbh/contracts';
import { plural } from '@cbh/ui';

/** What the list knows the targets by; a lookup answers undefined for what the reader may not list. */
export interface TargetNames {
  channel: (id: string) => Pick<ChannelView, 'name' | 'type'> | undefined;
  person: (id: string) => string | undefined;
  schedule: (id: string) => string | undefined;
}

/**
 * Targets by name where they can be named ("webhook ops-hook", "ana@example.com", "schedule Payments primary"), the
 * rest counted: channels are listed to circuit_breaker_admin only, so an operator reads "2 channels", and people are
 * listed while active, so a step naming someone deactivated since reads "1 person".
 */
function targetParts(notify: EscalationPolicyView['steps'][number]['notify'], names: TargetNames): string[] {
  const named = <T>(ids: readonly string[] | undefined, lookup: (id: string) => T | undefined) => {
    const found = (ids ?? []).map(lookup);
    return { known: found.filter((each): each is T => each !== undefined), unknown: found.filter((each) => each === undefined).length };
  };
  const channels = named(notify.channels, names.channel);
  const people = named(notify.users, names.person);
  const schedule = notify.schedule ? names.schedule(notify.schedule) : undefined;
  return [
    ...people.known,
    ...(people.unknown ? [`${people.unknown} ${people.unknown === 1 ? 'person' : 'people'}`] : []),
    ...(notify.schedule ? [schedule ? `schedule ${schedule}` : 'a schedule'] : []),
    ...channels.known.map((channel) => `${channel.type} ${channel.name}`),
    ...(channels.unknown ? [plural(channels.unknown, 'channel')] : []),
  ];
}

/** "1. ana@example.com, schedule Payments primary — wait 5 min", one line per step. */
export function stepLines(policy: Pick<EscalationPolicyView, 'steps'>, names: TargetNames): string[] {
  return policy.steps.map((step, index) => `${index + 1}. ${targetParts(step.notify, names).join(', ')} — wait ${step.waitMinutes} min`);
}

/** "No repeat", "Repeats once", "Repeats 3 times": how often the steps run again while no one acknowledges. */
export function repeatText(repeat: number): string {
  if (repeat === 0) return 'No repeat';
  return repeat === 1 ? 'Repeats once' : `Repeats ${repeat} times`;
}
