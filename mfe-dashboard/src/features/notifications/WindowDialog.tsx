import type { FormEvent } from 'react';
import { useCreateMaintenanceWindowMutation } from '@cbh/api-client';
import { Button, Fieldset, TextInput, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { CheckLabel, FieldPair, Form, FormField, Problem, TextField } from '../shared/form-parts';
import { BREAKER_NAMES_HINT, emptyWindowDraft, WINDOW_FIELDS, windowProblems, windowToCreate } from './notification-forms';
import { useFormDraft } from '../shared/use-form-draft';

/** A new maintenance window, its times in the reader's own time zone (sent with their offset). */
export function WindowDialog({ onClose }: { onClose: () => void }) {
  const form = useFormDraft(emptyWindowDraft(), windowProblems, WINDOW_FIELDS);
  const [create, { isLoading }] = useCreateMaintenanceWindowMutation();
  const { draft } = form;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = await create(windowToCreate(draft)).unwrap();
      toast({ title: 'Maintenance Window Added', description: `${saved.name}: matching notifications are muted, and still logged.` });
      onClose();
    } catch (error) {
      form.refused(error, 'Failed to save the maintenance window.');
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="Add maintenance window"
      description="While it lasts, notifications about what it names are muted; the log still shows them."
    >
      <Form onSubmit={submit} aria-label="New maintenance window" noValidate>
        <Fieldset disabled={isLoading}>
          <TextField
            label="Name"
            problem={form.problem('name')}
            value={draft.name}
            onChange={(value) => form.change('name', value)}
            placeholder="Database upgrade"
          />
          <FieldPair>
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
          </FieldPair>
          <CheckLabel>
            <input type="checkbox" checked={draft.repeatWeekly} onChange={(event) => form.change('repeatWeekly', event.target.checked)} />
            Repeat every week
          </CheckLabel>
          <TextField
            label="Breakers"
            hint={BREAKER_NAMES_HINT}
            problem={form.problem('breakers')}
            value={draft.breakers}
            onChange={(value) => form.change('breakers', value)}
            placeholder="payments"
          />
          <FormField
            label="Domains"
            hint="Names, separated by commas. Neither breakers nor domains: it mutes everything."
            problem={form.problem('domains')}
          >
            {(described) => (
              <TextInput
                value={draft.domains}
                onChange={(event) => form.change('domains', event.target.value)}
                placeholder="example.com"
                autoComplete="off"
                {...described}
              />
            )}
          </FormField>
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
