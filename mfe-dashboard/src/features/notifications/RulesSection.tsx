import styled from 'styled-components';
import {
  useDeleteNotificationRuleMutation,
  useGetEscalationPoliciesQuery,
  useGetNotificationChannelsQuery,
  useGetNotificationRulesQuery,
} from '@cbh/api-client';
import type { ChannelView, EscalationPolicyView } from '@cbh/contracts';
import { Muted } from '@cbh/ui';
import { RuleDialog } from './lazy-dialogs';
import { eventLabels, ruleFilterLines } from './notification-text';
import { RuleEnabledSwitch } from './RuleEnabledSwitch';
import { RecordsSection, RowButtons } from '../shared/records-section';

const COLUMNS = ['Name', 'Enabled', 'Events', 'Channels', 'Escalation policy', 'Filters', 'Min interval', 'Actions'];

const NO_CHANNELS: readonly ChannelView[] = [];
const NO_POLICIES: readonly EscalationPolicyView[] = [];

const Lines = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  display: grid;
  gap: 2px;
`;

function LineList({ lines, empty }: { lines: readonly string[]; empty: string }) {
  if (lines.length === 0) return <Muted>{empty}</Muted>;
  return (
    <Lines>
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </Lines>
  );
}

/** The rules, with a switch each, their channels and escalation policy by name, and their filters. */
export function RulesSection({ domainEvents }: { domainEvents: boolean }) {
  const rules = useGetNotificationRulesQuery();
  // the same cache entry the channels card reads (and refreshes)
  const channels = useGetNotificationChannelsQuery();
  const [remove] = useDeleteNotificationRuleMutation();
  // the same cache entry the on-call page's policies tab reads
  const policies = useGetEscalationPoliciesQuery();
  const channelNames = new Map((channels.data ?? []).map((channel) => [channel.id, channel.name]));
  const policyNames = new Map((policies.data ?? []).map((policy) => [policy.id, policy.name]));

  return (
    <RecordsSection
      id="notification-rules-title"
      title="Rules"
      description="Which events are sent to which channels; one notification per breaker or domain within the minimum interval."
      addLabel="Add rule"
      query={rules}
      what="rules"
      empty="No rules yet: nothing is sent until a rule names an event and a channel or an escalation policy."
      table={{ label: 'Notification rules', minWidth: 960, columns: COLUMNS }}
      row={(rule, editing) => (
        <tr data-testid={`rule-row-${rule.id}`}>
          <td>{rule.name}</td>
          <td>
            <RuleEnabledSwitch rule={rule} />
          </td>
          <td>
            <LineList lines={eventLabels(rule.events)} empty="None" />
          </td>
          <td>
            <LineList lines={rule.channelIds.map((id) => channelNames.get(id) ?? 'A deleted channel')} empty="None" />
          </td>
          <td>{rule.escalationPolicyId ? (policyNames.get(rule.escalationPolicyId) ?? 'An escalation policy') : <Muted>None</Muted>}</td>
          <td>
            <LineList lines={ruleFilterLines(rule)} empty="Every breaker and domain" />
          </td>
          <td>{rule.minIntervalMinutes === 0 ? 'None' : `${rule.minIntervalMinutes} min`}</td>
          <td>
            <RowButtons name={rule.name} onDelete={() => editing.delete(rule)} />
          </td>
        </tr>
      )}
      // rules are added, switched and deleted, not edited
      dialog={(_rule, close) => (
        <RuleDialog
          channels={channels.data ?? NO_CHANNELS}
          policies={policies.data ?? NO_POLICIES}
          domainEvents={domainEvents}
          onClose={close}
        />
      )}
      deletion={{
        what: 'rule',
        consequence: () => 'Its events are no longer sent to its channels.',
        remove: (rule) => remove(rule.id).unwrap(),
      }}
    />
  );
}
