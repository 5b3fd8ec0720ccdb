import type { FormEvent } from 'react';
import { useCreateNotificationChannelMutation, useUpdateNotificationChannelMutation } from '@cbh/api-client';
import { CHANNEL_TYPE_LABELS, CHANNEL_TYPES, type ChannelType, type ChannelView } from '@cbh/contracts';
import { Button, Fieldset, Select, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { Form, FormField, KEEP_PLACEHOLDER, Problem, SecretField, TextArea, TextField } from '../shared/form-parts';
import { CHANNEL_FIELDS, channelDraftOf, channelProblems, channelToCreate, channelToUpdate, emptyChannelDraft } from './notification-forms';
import { useFormDraft } from '../shared/use-form-draft';

const URL_HINTS: Record<Exclude<ChannelType, 'email'>, string> = {
  webhook: 'Receives a signed JSON POST for each notification. https, or http to a private address where the hub allows it.',
  slack: 'The incoming webhook URL Slack gives (https://hooks.slack.com/services/…).',
  discord: 'The webhook URL from the Discord channel’s integrations (https://discord.com/api/webhooks/…).',
};

/**
 * Adds a channel, or edits one (`channel`): its type stays; a URL or secret typed replaces the kept one, an empty
 * field keeps it. The dialog stays open on a refusal, with the reason under the field it names.
 */
export function ChannelDialog({ channel, onClose }: { channel?: ChannelView; onClose: () => void }) {
  const creating = !channel;
  const form = useFormDraft(
    channel ? channelDraftOf(channel) : emptyChannelDraft(),
    (draft) => channelProblems(draft, creating),
    CHANNEL_FIELDS,
  );
  const [create, creation] = useCreateNotificationChannelMutation();
  const [update, updating] = useUpdateNotificationChannelMutation();
  const pending = creation.isLoading || updating.isLoading;
  const { draft } = form;
  const patch = channel ? channelToUpdate(draft, channel) : null;
  const unchanged = patch !== null && Object.keys(patch).length === 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = channel && patch ? await update({ id: channel.id, ...patch }).unwrap() : await create(channelToCreate(draft)).unwrap();
      toast({ title: channel ? 'Channel Updated' : 'Channel Added', description: `${saved.name}: use Send test to try it.` });
      onClose();
    } catch (error) {
      form.refused(error, 'Failed to save the channel.');
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={channel ? `Edit ${channel.name}` : 'Add channel'}
      description="Where notifications go. URLs and secrets are kept encrypted and never shown again."
    >
      <Form onSubmit={submit} aria-label={channel ? 'Edit channel' : 'New channel'} noValidate>
        <Fieldset disabled={pending}>
          <TextField
            label="Name"
            problem={form.problem('name')}
            value={draft.name}
            onChange={(value) => form.change('name', value)}
            placeholder="On-call"
          />
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
          ) : (
            <TextField
              label="URL"
              type="url"
              hint={URL_HINTS[draft.type]}
              problem={form.problem('url')}
              value={draft.url}
              onChange={(value) => form.change('url', value)}
              placeholder={channel?.urlSet ? KEEP_PLACEHOLDER : 'https://'}
            />
          )}
          {draft.type === 'webhook' ? (
            <SecretField
              label="Secret"
              hint="Optional: signs each delivery (X-CBH-Signature) so the receiver can tell it came from the hub."
              problem={form.problem('secret')}
              value={draft.secret}
              onChange={(value) => form.change('secret', value)}
              placeholder="At least 8 characters"
              kept={channel?.secretSet ?? false}
              remove={{
                label: 'Remove the secret (deliveries go unsigned)',
                checked: draft.removeSecret,
                onChange: (checked) => form.change('removeSecret', checked),
              }}
            />
          ) : null}
          {form.formProblem ? <Problem role="alert">{form.formProblem}</Problem> : null}
          <DialogActions>
            <Button type="button" $variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!form.valid || unchanged || pending}>
              {pending ? 'Saving...' : 'Save'}
            </Button>
          </DialogActions>
        </Fieldset>
      </Form>
    </Dialog>
  );
}
