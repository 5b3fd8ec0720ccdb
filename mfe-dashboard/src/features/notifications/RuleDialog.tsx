import { useCreateNotificationRuleMutation } from '@cbh/api-client';
import {
  ALERT_SEVERITIES,
  BREAKER_TYPES,
  isDomainEvent,
  NOTIFICATION_EVENT_LABELS,
  NOTIFICATION_EVENTS,
  type ChannelView,
  type EscalationPolicyView,
} from '@cbh/contracts';
import { CheckboxGroup, FieldRow, FormField, Select, TextInput } from '@cbh/ui';
import { FormDialog } from '../shared/form-dialog';
import { NamesField, TextField } from '../shared/form-parts';
import { useNameChoices } from './name-choices';
import {
  BREAKER_NAMES_HINT,
  emptyRuleDraft,
  RULE_FIELDS,
  ruleParts,
  ruleProblems,
  ruleToCreate,
  unknownBreakerText,
  unknownDomainText,
} from './notification-forms';
import { capitalised } from './notification-text';
import { useFormDraft } from '../shared/use-form-draft';

const BREAKER_TYPE_CHOICES = BREAKER_TYPES.map((type) => ({ value: type, label: capitalised(type) }));
type NumberField = 'minIntervalMinutes' | 'stuckOpenMinutes' | 'flappingOpenings' | 'flappingMinutes';

const SEVERITY_CHOICES = ALERT_SEVERITIES.map((severity) => ({ value: severity, label: capitalised(severity) }));

/**
 * A new rule: which events go to which channels or escalation policy (or both), with filters and limits shown as the
 * chosen events need them. Domain alert events are offered to holders of domain_management only, as the API accepts
 * them only from them.
 */
export function RuleDialog({
  channels,
  policies,
  domainEvents,
  onClose,
}: {
  channels: readonly ChannelView[];
  policies: readonly EscalationPolicyView[];
  domainEvents: boolean;
  onClose: () => void;
}) {
  const form = useFormDraft(emptyRuleDraft(), ruleProblems, RULE_FIELDS);
  const [create, { isLoading }] = useCreateNotificationRuleMutation();
  const { draft } = form;
  // domain filters are offered with domain events, to holders of domain_management only: they may list domains
  const choices = useNameChoices(domainEvents);
  const parts = ruleParts(draft.events);
  const eventChoices = NOTIFICATION_EVENTS.filter((event) => domainEvents || !isDomainEvent(event)).map((event) => ({
    value: event,
    label: NOTIFICATION_EVENT_LABELS[event],
  }));

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
    <FormDialog
      title="Add rule"
      description="Which events go to which channels, or page through an escalation policy."
      formLabel="New rule"
      form={form}
      pending={isLoading}
      save={() => create(ruleToCreate(draft)).unwrap()}
      saved={(saved) => ({ title: 'Rule Added', description: `${saved.name} is on.` })}
      failure="Failed to save the rule."
      onClose={onClose}
    >
      <TextField label="Name" {...form.field('name')} placeholder="Page on-call" />
      <CheckboxGroup
        legend="Events"
        choices={eventChoices}
        {...form.field('events')}
        hint={domainEvents ? undefined : 'Domain alert events need the domain_management permission.'}
      />
      <CheckboxGroup
        legend="Channels"
        choices={channels.map((channel) => ({ value: channel.id, label: channel.name }))}
        {...form.field('channelIds')}
        hint={
          draft.escalationPolicyId
            ? 'Optional with an escalation policy.'
            : channels.length === 0
              ? 'Add a channel first, or pick an escalation policy.'
              : undefined
        }
      />
      <FormField
        label="Escalation policy"
        hint="Optional: the events open an alert group that pages the policy's steps until someone acknowledges it."
        problem={form.problem('escalationPolicyId')}
      >
        {(described) => (
          <Select
            value={draft.escalationPolicyId}
            onChange={(event) => form.change('escalationPolicyId', event.target.value)}
            {...described}
          >
            <option value="">None</option>
            {policies.map((policy) => (
              <option key={policy.id} value={policy.id}>
                {policy.name}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      {parts.breakerFilters ? (
        <>
          <NamesField
            label="Breakers"
            hint={`${BREAKER_NAMES_HINT} Empty for every breaker.`}
            {...form.field('breakers')}
            options={choices.breakers}
            unknown={unknownBreakerText}
            placeholder="payments"
          />
          <CheckboxGroup
            legend="Breaker types"
            choices={BREAKER_TYPE_CHOICES}
            {...form.field('breakerTypes')}
            hint="None ticked: every type."
          />
        </>
      ) : null}
      {parts.domainFilters ? (
        <>
          <NamesField
            label="Domains"
            hint="Pick from the list, or type a name; empty for every domain."
            {...form.field('domains')}
            options={choices.domains}
            unknown={unknownDomainText}
            placeholder="example.com"
          />
          <CheckboxGroup legend="Severities" choices={SEVERITY_CHOICES} {...form.field('severities')} hint="None ticked: every severity." />
        </>
      ) : null}
      {parts.stuckOpen ? number('stuckOpenMinutes', 'Stuck open after (minutes)') : null}
      {parts.flapping ? (
        <FieldRow $min={180}>
          {number('flappingOpenings', 'Flapping: more than (openings)')}
          {number('flappingMinutes', 'within (minutes)')}
        </FieldRow>
      ) : null}
      {number(
        'minIntervalMinutes',
        'Minimum interval (minutes)',
        'At most one notification per breaker or domain in this time; 0 for no limit.',
      )}
    </FormDialog>
  );
}
