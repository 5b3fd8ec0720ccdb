import { useDeleteNotificationChannelMutation, useGetNotificationChannelsQuery } from '@cbh/api-client';
import { ChannelRow } from './ChannelRow';
import { ChannelDialog } from './lazy-dialogs';
import { POLL_MS } from '../shared/section-parts';
import { RecordsSection } from '../shared/records-section';

const COLUMNS = ['Name', 'Type', 'Destination', 'Secret', 'Last delivery', 'Actions'];

/** The channels, each with its last delivery (read again every few seconds) and Send test. */
export function ChannelsSection() {
  const channels = useGetNotificationChannelsQuery(undefined, { pollingInterval: POLL_MS, skipPollingIfUnfocused: true });
  const [remove] = useDeleteNotificationChannelMutation();

  return (
    <RecordsSection
      id="notification-channels-title"
      title="Channels"
      description="Where notifications go: e-mail, signed webhooks, Slack and Discord."
      addLabel="Add channel"
      query={channels}
      what="channels"
      empty="No channels yet. Add one, then a rule that sends to it."
      table={{ label: 'Notification channels', minWidth: 960, columns: COLUMNS }}
      row={(channel, editing) => (
        <ChannelRow channel={channel} onEdit={() => editing.edit(channel)} onDelete={() => editing.delete(channel)} />
      )}
      dialog={(channel, close) => <ChannelDialog channel={channel} onClose={close} />}
      deletion={{ what: 'channel', consequence: () => 'Nothing more is sent to it.', remove: (channel) => remove(channel.id).unwrap() }}
    />
  );
}
