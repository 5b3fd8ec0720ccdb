import styled from 'styled-components';
import { useDeleteNotificationRuleMutation, useGetNotificationChannelsQuery, useGetNotificationRulesQuery } from '@cbh/api-client';
import type { ChannelView } from '@cbh/contracts';
import { Muted } from '@cbh/ui';
import { RuleDialog } from './lazy-dialogs';
import { eventLabels, ruleFilterLines } from './notification-text';
import { RuleEnabledSwitch } from './RuleEnabledSwitch';
import { RecordsSection, RowButtons } from '../shared/records-section';

const COLUMNS = ['Name', 'Enabled', 'Events', 'Channels', 'Filters', 'Min interval', 'Actions'];

const NO_CHANNELS: readonly ChannelView[] = [];

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

/** The rules, with a switch each, the channels they send to by name, and their filters. */
export function RulesSection({ domainEvents }: { domainEvents: boolean }) {
  const rules = useGetNotificationRulesQuery();
  // the same cache entry the channels card reads (and refreshes)
  const channels = useGetNotificationChannelsQuery();
  const [remove] = useDeleteNotificationRuleMutation();
  const channelNames = new Map((channels.data ?? []).map((channel) => [channel.id, channel.name]));

  return (
    <RecordsSection
      id="notification-rules-title"
      title="Rules"
      description="Which events are sent to which channels; one notification per breaker or domain within the minimum interval."
      addLabel="Add rule"
      query={rules}
      what="rules"
      empty="No rules yet: nothing is sent until a rule names an event and a channel."
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
      dialog={(_rule, close) => <RuleDialog channels={channels.data ?? NO_CHANNELS} domainEvents={domainEvents} onClose={close} />}
      deletion={{
        what: 'rule',
        consequence: () => 'Its events are no longer sent to its channels.',
        remove: (rule) => remove(rule.id).unwrap(),
      }}
    />
  );
}
