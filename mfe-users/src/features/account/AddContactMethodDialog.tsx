import { useState, type FormEvent } from 'react';
import { apiErrorMessage, failureText, useAddContactMethodMutation } from '@cbh/api-client';
import {
  CHANNEL_TYPE_LABELS,
  CONTACT_METHOD_TYPES,
  isHttpUrl,
  ON_CALL_LIMITS,
  type ContactMethodType,
  type CreateContactMethod,
} from '@cbh/contracts';
import { Button, Fieldset, Form, FormField, Problem, Select, TextInput, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';

type Field = keyof CreateContactMethod;
type Problems = Partial<Record<Field, string>>;

/** Where each kind of channel gives its address. */
const URL_HINTS: Record<ContactMethodType, string> = {
  slack: 'The incoming webhook Slack gives for your direct messages or a channel (https://hooks.slack.com/services/…).',
  discord: 'The webhook URL from a Discord channel’s integrations (https://discord.com/api/webhooks/…).',
  webhook: 'Receives a JSON POST for each escalation that reaches you. https, or http to a private address where the hub allows it.',
};

const URL_PLACEHOLDERS: Record<ContactMethodType, string> = {
  slack: 'https://hooks.slack.com/services/…',
  discord: 'https://discord.com/api/webhooks/…',
  webhook: 'https://',
};

/**
 * Each field's first problem, in the words of the API's createContactMethodSchema, judged here without it: the
 * screens carry no schema library (zod would double this remote's first download). The API judges again.
 */
function problemsOf(draft: CreateContactMethod): Problems {
  const problems: Problems = {};
  if (!CONTACT_METHOD_TYPES.includes(draft.type)) problems.type = `must be one of ${CONTACT_METHOD_TYPES.join(', ')}`;
  if (!isHttpUrl(draft.url)) problems.url = 'must be an http(s) URL';
  else if (draft.url.length > ON_CALL_LIMITS.contactUrlLength)
    problems.url = `must be at most ${ON_CALL_LIMITS.contactUrlLength} characters`;
  if (draft.label !== undefined && draft.label.length > ON_CALL_LIMITS.nameLength) {
    problems.label = `must be at most ${ON_CALL_LIMITS.nameLength} characters`;
  }
  return problems;
}

/** The form inside the dialog: mounted while it is open, so closing it forgets what was typed (the URL holds a secret). */
function ContactMethodForm({ onDone }: { onDone: () => void }) {
  const [type, setType] = useState<ContactMethodType>('slack');
  const [url, setUrl] = useState('');
  const [label, setLabel] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [add, { isLoading }] = useAddContactMethodMutation();

  const edit = (field: Field, change: () => void) => {
    change();
    setProblems((shown) => ({ ...shown, [field]: undefined }));
    setRefusal(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const draft: CreateContactMethod = { type, url: url.trim(), label: label.trim() || undefined };
    const found = problemsOf(draft);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    try {
      const added = await add(draft).unwrap();
      toast({
        title: 'Contact Method Added',
        description: `${CHANNEL_TYPE_LABELS[added.type]} (${added.label || added.target}) is reached when an escalation names you.`,
      });
      onDone();
    } catch (error) {
      // the form stays, so the address can be corrected; the server's reason stays in it
      setRefusal(apiErrorMessage(error) ?? 'The hub could not be reached; try again.');
      toast({ title: 'Error', description: failureText('The contact method was not added', error), variant: 'destructive' });
    }
  };

  return (
    <Form onSubmit={submit} aria-label="New contact method" noValidate>
      <Fieldset disabled={isLoading}>
        <FormField label="Type" problem={problems.type}>
          {(described) => (
            <Select value={type} onChange={(event) => edit('type', () => setType(event.target.value as ContactMethodType))} {...described}>
              {CONTACT_METHOD_TYPES.map((each) => (
                <option key={each} value={each}>
                  {CHANNEL_TYPE_LABELS[each]}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField label="URL" hint={URL_HINTS[type]} problem={problems.url}>
          {(described) => (
            <TextInput
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              value={url}
              onChange={(event) => edit('url', () => setUrl(event.target.value))}
              placeholder={URL_PLACEHOLDERS[type]}
              maxLength={ON_CALL_LIMITS.contactUrlLength}
              required
              {...described}
            />
          )}
        </FormField>
        <FormField label="Label (optional)" hint="Tells your channels apart, such as ‘Phone’ or ‘Team room’." problem={problems.label}>
          {(described) => (
            <TextInput
              value={label}
              onChange={(event) => edit('label', () => setLabel(event.target.value))}
              maxLength={ON_CALL_LIMITS.nameLength}
              {...described}
            />
          )}
        </FormField>
        {refusal ? <Problem role="alert">{refusal}</Problem> : null}
        <DialogActions>
          <Button type="button" $variant="outline" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" disabled={!url.trim() || isLoading}>
            {isLoading ? 'Adding...' : 'Add'}
          </Button>
        </DialogActions>
      </Fieldset>
    </Form>
  );
}

/** Adds a personal channel an escalation reaches the person through: Slack, Discord or a webhook, by its URL. */
export function AddContactMethodDialog({ disabled }: { disabled: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="Add Contact Method"
      description="A channel of your own an escalation reaches you through, besides your e-mail. Its URL is kept encrypted and never shown again."
      trigger={<Button disabled={disabled}>Add contact method</Button>}
    >
      {open ? <ContactMethodForm onDone={() => setOpen(false)} /> : null}
    </Dialog>
  );
}
