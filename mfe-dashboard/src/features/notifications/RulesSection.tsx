import { Suspense, useState } from 'react';
import styled from 'styled-components';
import { useDeleteNotificationRuleMutation, useGetNotificationChannelsQuery, useGetNotificationRulesQuery } from '@cbh/api-client';
import type { ChannelView, RuleView } from '@cbh/contracts';
import { Button, DataTable, Muted, VisuallyHidden } from '@cbh/ui';
import { ConfirmDelete, RuleDialog } from './lazy-dialogs';
import { eventLabels, ruleFilterLines } from './notification-text';
import { RuleEnabledSwitch } from './RuleEnabledSwitch';
import { LoadedList, Section } from '../shared/section-parts';

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
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<RuleView | null>(null);
  const channelNames = new Map((channels.data ?? []).map((channel) => [channel.id, channel.name]));

  return (
    <Section
      id="notification-rules-title"
      title="Rules"
      description="Which events are sent to which channels; one notification per breaker or domain within the minimum interval."
      action={<Button onClick={() => setAdding(true)}>Add rule</Button>}
    >
      <LoadedList query={rules} what="rules">
        {(list) =>
          list.length === 0 ? (
            <Muted>No rules yet: nothing is sent until a rule names an event and a channel.</Muted>
          ) : (
            <DataTable label="Notification rules" minWidth={960} columns={COLUMNS}>
              {list.map((rule) => (
                <tr key={rule.id} data-testid={`rule-row-${rule.id}`}>
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
                    <Button $variant="ghost" onClick={() => setDeleting(rule)}>
                      Delete<VisuallyHidden> {rule.name}</VisuallyHidden>
                    </Button>
                  </td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </LoadedList>
      <Suspense fallback={null}>
        {adding ? (
          <RuleDialog channels={channels.data ?? NO_CHANNELS} domainEvents={domainEvents} onClose={() => setAdding(false)} />
        ) : null}
        {deleting ? (
          <ConfirmDelete
            what="rule"
            name={deleting.name}
            consequence="Its events are no longer sent to its channels."
            remove={() => remove(deleting.id).unwrap()}
            onClose={() => setDeleting(null)}
          />
        ) : null}
      </Suspense>
    </Section>
  );
}
