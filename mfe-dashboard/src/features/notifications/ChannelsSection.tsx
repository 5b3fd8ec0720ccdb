import { Suspense, useState } from 'react';
import { useDeleteNotificationChannelMutation, useGetNotificationChannelsQuery } from '@cbh/api-client';
import type { ChannelView } from '@cbh/contracts';
import { Button, DataTable, Muted } from '@cbh/ui';
import { ChannelRow } from './ChannelRow';
import { ChannelDialog, ConfirmDelete } from './lazy-dialogs';
import { LoadedList, POLL_MS, Section } from '../shared/section-parts';

const COLUMNS = ['Name', 'Type', 'Destination', 'Secret', 'Last delivery', 'Actions'];

type Editing = { kind: 'add' } | { kind: 'edit' | 'delete'; channel: ChannelView } | null;

/** The channels, each with its last delivery (read again every few seconds) and Send test. */
export function ChannelsSection() {
  const channels = useGetNotificationChannelsQuery(undefined, { pollingInterval: POLL_MS, skipPollingIfUnfocused: true });
  const [remove] = useDeleteNotificationChannelMutation();
  const [editing, setEditing] = useState<Editing>(null);
  const close = () => setEditing(null);

  return (
    <Section
      id="notification-channels-title"
      title="Channels"
      description="Where notifications go: e-mail, signed webhooks, Slack and Discord."
      action={<Button onClick={() => setEditing({ kind: 'add' })}>Add channel</Button>}
    >
      <LoadedList query={channels} what="channels">
        {(list) =>
          list.length === 0 ? (
            <Muted>No channels yet. Add one, then a rule that sends to it.</Muted>
          ) : (
            <DataTable label="Notification channels" minWidth={960} columns={COLUMNS}>
              {list.map((channel) => (
                <ChannelRow
                  key={channel.id}
                  channel={channel}
                  onEdit={() => setEditing({ kind: 'edit', channel })}
                  onDelete={() => setEditing({ kind: 'delete', channel })}
                />
              ))}
            </DataTable>
          )
        }
      </LoadedList>
      <Suspense fallback={null}>
        {editing?.kind === 'add' ? <ChannelDialog onClose={close} /> : null}
        {editing?.kind === 'edit' ? <ChannelDialog key={editing.channel.id} channel={editing.channel} onClose={close} /> : null}
        {editing?.kind === 'delete' ? (
          <ConfirmDelete
            what="channel"
            name={editing.channel.name}
            consequence="Nothing more is sent to it."
            remove={() => remove(editing.channel.id).unwrap()}
            onClose={close}
          />
        ) : null}
      </Suspense>
    </Section>
  );
}
