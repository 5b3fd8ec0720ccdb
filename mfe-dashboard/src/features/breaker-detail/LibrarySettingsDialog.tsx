import { useUpdateLibrarySettingsMutation } from '@cbh/api-client';
import type { BreakerConfigView } from '@cbh/contracts';
import { FormDialog } from '../shared/form-dialog';
import { TextField } from '../shared/form-parts';
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

  return (
    <FormDialog
      title={`Edit library settings of ${breaker.name}`}
      description={`In ${breaker.library ?? 'the library'}’s own words and units. Only the numeric settings are changed here.`}
      formLabel="Library settings"
      form={form}
      pending={isLoading}
      unchanged={unchanged}
      save={() => update({ id: breaker.id, librarySettings: changed }).unwrap()}
      saved={() => ({
        title: 'Library Settings Sent',
        description: `Every instance of ${breaker.service} takes them in the answer to its next report.`,
      })}
      failure="Failed to update the settings."
      onClose={onClose}
    >
      {names.map((name) => (
        // a setting's draft is always there (draftOf), though its type cannot say so
        <TextField key={name} label={name} inputMode="decimal" {...form.field(name)} value={form.draft[name] ?? ''} />
      ))}
    </FormDialog>
  );
}
