import { useCreateNotificationChannelMutation, useUpdateNotificationChannelMutation } from '@cbh/api-client';
import { CHANNEL_TYPE_LABELS, CHANNEL_TYPES, type ChannelType, type ChannelView } from '@cbh/contracts';
import { FormField, Muted, Select, TextArea } from '@cbh/ui';
import { FormDialog } from '../shared/form-dialog';
import { KEEP_PLACEHOLDER, SecretField, TextField } from '../shared/form-parts';
import { CHANNEL_FORM } from './notification-forms';
import { useRecordForm } from '../shared/use-record-form';

const URL_HINTS: Record<Exclude<ChannelType, 'email' | 'log'>, string> = {
  webhook: 'Receives a signed JSON POST for each notification. https, or http to a private address where the hub allows it.',
  slack: 'The incoming webhook URL Slack gives (https://hooks.slack.com/services/…).',
  discord: 'The webhook URL from the Discord channel’s integrations (https://discord.com/api/webhooks/…).',
};

/**
 * Adds a channel, or edits one (`channel`): its type stays; a URL or secret typed replaces the kept one, an empty
 * field keeps it. The dialog stays open on a refusal, with the reason under the field it names.
 */
export function ChannelDialog({ channel, onClose }: { channel?: ChannelView; onClose: () => void }) {
  const { form, creating, frame } = useRecordForm(
    channel,
    CHANNEL_FORM,
    useCreateNotificationChannelMutation,
    useUpdateNotificationChannelMutation,
  );
  const { draft } = form;

  return (
    <FormDialog
      title={channel ? `Edit ${channel.name}` : 'Add channel'}
      description="Where notifications go. URLs and secrets are kept encrypted and never shown again."
      formLabel={channel ? 'Edit channel' : 'New channel'}
      {...frame}
      saved={(saved) => ({ title: channel ? 'Channel Updated' : 'Channel Added', description: `${saved.name}: use Send test to try it.` })}
      failure="Failed to save the channel."
      onClose={onClose}
    >
      <TextField label="Name" {...form.field('name')} placeholder="On-call" />
      <FormField label="Type" hint={channel ? 'A channel keeps its type.' : undefined} problem={form.problem('type')}>
        {(described) => (
          <Select
            value={draft.type}
            disabled={!creating}
            onChange={(event) => form.change('type', event.target.value as ChannelType)}
            {...described}
          >
            {CHANNEL_TYPES.map((type) => (
              <option key={type} value={type}>
                {CHANNEL_TYPE_LABELS[type]}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      {draft.type === 'email' ? (
        <FormField label="Recipients" hint="E-mail addresses, separated by commas or new lines." problem={form.problem('recipients')}>
          {(described) => (
            <TextArea
              value={draft.recipients}
              onChange={(event) => form.change('recipients', event.target.value)}
              placeholder="oncall@example.com"
              spellCheck={false}
              {...described}
            />
          )}
        </FormField>
      ) : draft.type === 'log' ? (
        <Muted>Each notification is written as one line to the API&apos;s log: nothing leaves the hub.</Muted>
      ) : (
        <TextField
          label="URL"
          type="url"
          hint={URL_HINTS[draft.type]}
          {...form.field('url')}
          placeholder={channel?.urlSet ? KEEP_PLACEHOLDER : 'https://'}
        />
      )}
      {draft.type === 'webhook' ? (
        <SecretField
          label="Secret"
          hint="Optional: signs each delivery (X-CBH-Signature) so the receiver can tell it came from the hub."
          {...form.field('secret')}
          placeholder="At least 8 characters"
          kept={channel?.secretSet ?? false}
          remove={{
            label: 'Remove the secret (deliveries go unsigned)',
            checked: draft.removeSecret,
            onChange: (checked) => form.change('removeSecret', checked),
          }}
        />
      ) : null}
    </FormDialog>
  );
}
