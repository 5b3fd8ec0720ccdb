import { useState } from 'react';
import {
  apiErrorMessage,
  useAcknowledgeAlertGroupMutation,
  useResolveAlertGroupMutation,
  useUnacknowledgeAlertGroupMutation,
} from '@cbh/api-client';
import type { AlertGroupView } from '@cbh/contracts';
import { Button, toast, VisuallyHidden } from '@cbh/ui';
import { SilenceDialog } from './SilenceDialog';

type Action = 'acknowledge' | 'unacknowledge' | 'resolve';

/** Each action's words, what its toast says once done, and its call. */
const ACTIONS = {
  acknowledge: {
    label: 'Acknowledge',
    pending: 'Acknowledging...',
    done: 'Alert Group Acknowledged',
    said: (title: string) => `${title}: the escalation stops; you are on it.`,
    useMutation: useAcknowledgeAlertGroupMutation,
  },
  unacknowledge: {
    label: 'Unacknowledge',
    pending: 'Unacknowledging...',
    done: 'Alert Group Unacknowledged',
    said: (title: string) => `${title} is firing again: the escalation goes on.`,
    useMutation: useUnacknowledgeAlertGroupMutation,
  },
  resolve: {
    label: 'Resolve',
    pending: 'Resolving...',
    done: 'Alert Group Resolved',
    said: (title: string) => `${title} is resolved.`,
    useMutation: useResolveAlertGroupMutation,
  },
} as const;

/**
 * One action on a group, with its toast. `named`: the button's name also says which group (a list's rows each have
 * one, "Acknowledge Breaker payments opened"); a group's own page needs no more than the verb. The list and the page
 * read the group again by themselves (the action invalidates the groups, and a live alertGroupChanged follows).
 */
function ActionButton({ group, action, named }: { group: AlertGroupView; action: Action; named: boolean }) {
  const words = ACTIONS[action];
  const [run, { isLoading }] = words.useMutation();
  const click = async () => {
    try {
      await run(group.id).unwrap();
      toast({ title: words.done, description: words.said(group.title) });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? `Failed to ${action} the alert group.`, variant: 'destructive' });
    }
  };
  return (
    <Button $variant={action === 'acknowledge' ? 'primary' : 'outline'} onClick={click} disabled={isLoading}>
      {isLoading ? words.pending : words.label}
      {named ? <VisuallyHidden> {group.title}</VisuallyHidden> : null}
    </Button>
  );
}

/** A group waiting for someone (firing, or silenced for a while) may be acknowledged. */
const acknowledgeable = (group: AlertGroupView) => group.state === 'firing' || group.state === 'silenced';

/** A list row's actions: the two an on-call person reaches for without opening the group. */
export function InlineGroupActions({ group }: { group: AlertGroupView }) {
  if (group.state === 'resolved') return null;
  return (
    <>
      {acknowledgeable(group) ? <ActionButton group={group} action="acknowledge" named /> : null}
      <ActionButton group={group} action="resolve" named />
    </>
  );
}

/** A group's page's actions, those its state allows: Acknowledge or Unacknowledge, Silence until acknowledged, Resolve. */
export function GroupActions({ group }: { group: AlertGroupView }) {
  const [silencing, setSilencing] = useState(false);
  if (group.state === 'resolved') return null;
  return (
    <>
      {acknowledgeable(group) ? <ActionButton group={group} action="acknowledge" named={false} /> : null}
      {group.state === 'acknowledged' ? <ActionButton group={group} action="unacknowledge" named={false} /> : null}
      {/* a silenced group may be silenced again, for longer or shorter; an acknowledged one needs no silence */}
      {group.state === 'firing' || group.state === 'silenced' ? (
        <Button $variant="outline" onClick={() => setSilencing(true)}>
          Silence
        </Button>
      ) : null}
      <ActionButton group={group} action="resolve" named={false} />
      {silencing ? <SilenceDialog group={group} onClose={() => setSilencing(false)} /> : null}
    </>
  );
}
