import { useCreateMaintenanceWindowMutation } from '@cbh/api-client';
import { CheckLabel, FieldRow, FormField, TextInput } from '@cbh/ui';
import { FormDialog } from '../shared/form-dialog';
import { NamesField, TextField } from '../shared/form-parts';
import { useNameChoices } from './name-choices';
import {
  BREAKER_NAMES_HINT,
  DOMAINS_UNLISTED_HINT,
  emptyWindowDraft,
  unknownBreakerText,
  unknownDomainText,
  WINDOW_FIELDS,
  windowProblems,
  windowToCreate,
} from './notification-forms';
import { useFormDraft } from '../shared/use-form-draft';

/**
 * A new maintenance window, its times in the reader's own time zone (sent with their offset), its breakers and
 * domains picked from the hub's (domains for holders of domain_management, who may list them).
 */
export function WindowDialog({ domainAccess, onClose }: { domainAccess: boolean; onClose: () => void }) {
  const form = useFormDraft(emptyWindowDraft(), windowProblems, WINDOW_FIELDS);
  const choices = useNameChoices(domainAccess);
  const [create, { isLoading }] = useCreateMaintenanceWindowMutation();
  const { draft } = form;

  return (
    <FormDialog
      title="Add maintenance window"
      description="While it lasts, notifications about what it names are muted; the log still shows them."
      formLabel="New maintenance window"
      form={form}
      pending={isLoading}
      save={() => create(windowToCreate(draft)).unwrap()}
      saved={(saved) => ({
        title: 'Maintenance Window Added',
        description: `${saved.name}: matching notifications are muted, and still logged.`,
      })}
      failure="Failed to save the maintenance window."
      onClose={onClose}
    >
      <TextField label="Name" {...form.field('name')} placeholder="Database upgrade" />
      <FieldRow $min={180}>
        <FormField label="Starts" problem={form.problem('startsAt')}>
          {(described) => (
            <TextInput
              type="datetime-local"
              value={draft.startsAt}
              onChange={(event) => form.change('startsAt', event.target.value)}
              {...described}
            />
          )}
        </FormField>
        <FormField label="Ends" problem={form.problem('endsAt')}>
          {(described) => (
            <TextInput
              type="datetime-local"
              value={draft.endsAt}
              onChange={(event) => form.change('endsAt', event.target.value)}
              {...described}
            />
          )}
        </FormField>
      </FieldRow>
      <CheckLabel>
        <input type="checkbox" checked={draft.repeatWeekly} onChange={(event) => form.change('repeatWeekly', event.target.checked)} />
        Repeat every week
      </CheckLabel>
      <NamesField
        label="Breakers"
        hint={BREAKER_NAMES_HINT}
        {...form.field('breakers')}
        options={choices.breakers}
        unknown={unknownBreakerText}
        placeholder="payments"
      />
      <NamesField
        label="Domains"
        hint={`${domainAccess ? 'Pick from the list, or type a name.' : DOMAINS_UNLISTED_HINT} Neither breakers nor domains: it mutes everything.`}
        {...form.field('domains')}
        options={choices.domains}
        unknown={unknownDomainText}
        placeholder="example.com"
      />
    </FormDialog>
  );
}
