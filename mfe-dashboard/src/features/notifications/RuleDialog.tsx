import type { FormEvent } from 'react';
import { useCreateNotificationRuleMutation } from '@cbh/api-client';
import {
  ALERT_SEVERITIES,
  BREAKER_TYPES,
  isDomainEvent,
  NOTIFICATION_EVENT_LABELS,
  NOTIFICATION_EVENTS,
  type ChannelView,
} from '@cbh/contracts';
import { Button, Fieldset, TextInput, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { CheckboxGroup, FieldPair, Form, FormField, Problem, TextField } from '../shared/form-parts';
import { BREAKER_NAMES_HINT, emptyRuleDraft, RULE_FIELDS, ruleParts, ruleProblems, ruleToCreate } from './notification-forms';
import { capitalised } from './notification-text';
import { useFormDraft } from '../shared/use-form-draft';

const BREAKER_TYPE_CHOICES = BREAKER_TYPES.map((type) => ({ value: type, label: capitalised(type) }));
type NumberField = 'minIntervalMinutes' | 'stuckOpenMinutes' | 'flappingOpenings' | 'flappingMinutes';

const SEVERITY_CHOICES = ALERT_SEVERITIES.map((severity) => ({ value: severity, label: capitalised(severity) }));

/**
 * A new rule: which events go to which channels, with filters and limits shown as the chosen events need them.
 * Domain alert events are offered to holders of domain_management only, as the API accepts them only from them.
 */
export function RuleDialog({
  channels,
  domainEvents,
  onClose,
}: {
  channels: readonly ChannelView[];
  domainEvents: boolean;
  onClose: () => void;
}) {
  const form = useFormDraft(emptyRuleDraft(), ruleProblems, RULE_FIELDS);
  const [create, { isLoading }] = useCreateNotificationRuleMutation();
  const { draft } = form;
  const parts = ruleParts(draft.events);
  const eventChoices = NOTIFICATION_EVENTS.filter((event) => domainEvents || !isDomainEvent(event)).map((event) => ({
    value: event,
    label: NOTIFICATION_EVENT_LABELS[event],
  }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = await create(ruleToCreate(draft)).unwrap();
      toast({ title: 'Rule Added', description: `${saved.name} is on.` });
      onClose();
    } catch (error) {
      form.refused(error, 'Failed to save the rule.');
    }
  };

  const number = (field: NumberField, label: string, hint?: string) => (
    <FormField label={label} hint={hint} problem={form.problem(field)}>
      {(described) => (
        <TextInput
          type="number"
          inputMode="numeric"
          step={1}
          value={draft[field]}
          onChange={(event) => form.change(field, event.target.value)}
          {...described}
        />
      )}
    </FormField>
  );

  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())} title="Add rule" description="Which events go to which channels.">
      <Form onSubmit={submit} aria-label="New rule" noValidate>
        <Fieldset disabled={isLoading}>
          <TextField
            label="Name"
            problem={form.problem('name')}
            value={draft.name}
            onChange={(value) => form.change('name', value)}
            placeholder="Page on-call"
          />
          <CheckboxGroup
            legend="Events"
            choices={eventChoices}
            chosen={draft.events}
            onChange={(events) => form.change('events', events)}
            hint={domainEvents ? undefined : 'Domain alert events need the domain_management permission.'}
            problem={form.problem('events')}
          />
          <CheckboxGroup
            legend="Channels"
            choices={channels.map((channel) => ({ value: channel.id, label: channel.name }))}
            chosen={draft.channelIds}
            onChange={(channelIds) => form.change('channelIds', channelIds)}
            hint={channels.length === 0 ? 'Add a channel first.' : undefined}
            problem={form.problem('channelIds')}
          />
          {parts.breakerFilters ? (
            <>
              <TextField
                label="Breakers"
                hint={`${BREAKER_NAMES_HINT} Empty for every breaker.`}
                problem={form.problem('breakers')}
                value={draft.breakers}
                onChange={(value) => form.change('breakers', value)}
                placeholder="payments, inventory"
              />
              <CheckboxGroup
                legend="Breaker types"
                choices={BREAKER_TYPE_CHOICES}
                chosen={draft.breakerTypes}
                onChange={(types) => form.change('breakerTypes', types)}
                hint="None ticked: every type."
                problem={form.problem('breakerTypes')}
              />
            </>
          ) : null}
          {parts.domainFilters ? (
            <>
              <TextField
                label="Domains"
                hint="Names, separated by commas; empty for every domain."
                problem={form.problem('domains')}
                value={draft.domains}
                onChange={(value) => form.change('domains', value)}
                placeholder="example.com"
              />
              <CheckboxGroup
                legend="Severities"
                choices={SEVERITY_CHOICES}
                chosen={draft.severities}
                onChange={(severities) => form.change('severities', severities)}
                hint="None ticked: every severity."
                problem={form.problem('severities')}
              />
            </>
          ) : null}
          {parts.stuckOpen ? number('stuckOpenMinutes', 'Stuck open after (minutes)') : null}
          {parts.flapping ? (
            <FieldPair>
              {number('flappingOpenings', 'Flapping: more than (openings)')}
              {number('flappingMinutes', 'within (minutes)')}
            </FieldPair>
          ) : null}
          {number(
            'minIntervalMinutes',
            'Minimum interval (minutes)',
            'At most one notification per breaker or domain in this time; 0 for no limit.',
          )}
          {form.formProblem ? <Problem role="alert">{form.formProblem}</Problem> : null}
          <DialogActions>
            <Button type="button" $variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!form.valid || isLoading}>
              {isLoading ? 'Saving...' : 'Save'}
            </Button>
          </DialogActions>
        </Fieldset>
      </Form>
    </Dialog>
  );
}
