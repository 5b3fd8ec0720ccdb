import styled from 'styled-components';
import { apiErrorMessage, useUpdateNotificationRuleMutation } from '@cbh/api-client';
import type { RuleView } from '@cbh/contracts';
import { controlStates, theme, toast } from '@cbh/ui';

/*
 * A native checkbox in the switch role, drawn like the overlays entry's Switch. That one would bring the whole
 * overlays entry (21 KB gzip) with the rules table, and the page past its 50 KB on first navigation; the native
 * control is keyboard- and screen-reader-ready with no script, as the site's selects are.
 */
const SwitchInput = styled.input`
  appearance: none;
  position: relative;
  flex: none;
  /* 24 px tall: a finger's target (WCAG 2.5.8) */
  width: 44px;
  height: 24px;
  margin: 0;
  border-radius: 999px;
  background: ${theme.colors.inactive};
  cursor: pointer;
  &::before {
    content: '';
    position: absolute;
    top: 2px;
    left: 2px;
    width: 20px;
    height: 20px;
    border-radius: 999px;
    background: ${theme.colors.surface};
    transition: transform 120ms;
  }
  &:checked {
    background: ${theme.colors.primary};
  }
  &:checked::before {
    transform: translateX(20px);
  }
  ${controlStates}
`;

/** Turns a rule on or off; off, it sends nothing until it is on again. */
export function RuleEnabledSwitch({ rule }: { rule: RuleView }) {
  const [update, { isLoading }] = useUpdateNotificationRuleMutation();
  const change = async (enabled: boolean) => {
    try {
      await update({ id: rule.id, enabled }).unwrap();
      toast({ title: enabled ? 'Rule Enabled' : 'Rule Disabled', description: rule.name });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to update the rule.', variant: 'destructive' });
    }
  };
  return (
    <SwitchInput
      type="checkbox"
      role="switch"
      checked={rule.enabled}
      onChange={(event) => void change(event.target.checked)}
      aria-label={`Enabled: ${rule.name}`}
      disabled={isLoading}
    />
  );
}
