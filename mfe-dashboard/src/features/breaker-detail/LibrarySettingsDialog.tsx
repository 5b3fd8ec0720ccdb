import type { FormEvent } from 'react';
import { useUpdateLibrarySettingsMutation } from '@cbh/api-client';
import type { BreakerConfigView } from '@cbh/contracts';
import { Button, Fieldset, toast } from '@cbh/ui';
import { Dialog, DialogActions } from '@cbh/ui/overlays';
import { Form, Problem, TextField } from '../shared/form-parts';
import { useFormDraft } from '../shared/use-form-draft';
import { changedSettings, draftOf, librarySettingsProblems, numericSettings } from './library-settings';

/**
 * The numeric settings of an agent's breaker, one field each; Save PATCHes those changed as `librarySettings`, and
 * the hub sends them to every instance. A refusal (400, or 409 for a breaker that takes none) stays in the dialog.
 */
export function LibrarySettingsDialog({ breaker, onClose }: { breaker: BreakerConfigView; onClose: () => void }) {
  const settings = numericSettings(breaker.librarySettings);
  const names = settings.map(([name]) => name);
  const form = useFormDraft(draftOf(settings), librarySettingsProblems, names);
  const [update, { isLoading }] = useUpdateLibrarySettingsMutation();
  const changed = changedSettings(form.draft, settings);
  const unchanged = Object.keys(changed).length === 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await update({ id: breaker.id, librarySettings: changed }).unwrap();
      toast({
        title: 'Library Settings Sent',
        description: `Every instance of ${breaker.service} takes them in the answer to its next report.`,
      });
      onClose();
    } catch (error) {
      form.refused(error, 'Failed to update the settings.');
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Edit library settings of ${breaker.name}`}
      description={`In ${breaker.library ?? 'the library'}’s own words and units. Only the numeric settings are changed here.`}
    >
      <Form onSubmit={submit} aria-label="Library settings" noValidate>
        <Fieldset disabled={isLoading}>
          {names.map((name) => (
            <TextField
              key={name}
              label={name}
              inputMode="decimal"
              problem={form.problem(name)}
              value={form.draft[name] ?? ''}
              onChange={(value) => form.change(name, value)}
            />
          ))}
          {form.formProblem ? <Problem role="alert">{form.formProblem}</Problem> : null}
          <DialogActions>
            <Button type="button" $variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!form.valid || unchanged || isLoading}>
              {isLoading ? 'Saving...' : 'Save'}
            </Button>
          </DialogActions>
        </Fieldset>
      </Form>
    </Dialog>
  );
}
