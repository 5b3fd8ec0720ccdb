import { useCreateSloMutation, useUpdateSloMutation } from '@cbh/api-client';
import { SLO_WINDOWS, type SloView, type SloWindow } from '@cbh/contracts';
import { FieldRow, FormField, Select, TextArea } from '@cbh/ui';
import { FormDialog } from '../shared/form-dialog';
import { TextField } from '../shared/form-parts';
import { useRecordForm } from '../shared/use-record-form';
import { IndicatorFields } from './IndicatorFields';
import { useMemberChoices } from './member-choices';
import { flatRefusal, SLO_FORM } from './slo-form';
import { windowText } from './slo-text';

/**
 * Adds an SLO, or edits one (`slo`, prefilled; Save sends what changed). A refusal keeps the dialog open, with the
 * reason under the field it names, an indicator's fields included.
 */
export function SloDialog({ slo, domainAccess, onClose }: { slo?: SloView; domainAccess: boolean; onClose: () => void }) {
  const { form, frame } = useRecordForm(slo, SLO_FORM, useCreateSloMutation, useUpdateSloMutation);
  const choices = useMemberChoices(domainAccess);

  return (
    <FormDialog
      title={slo ? `Edit ${slo.name}` : 'New SLO'}
      description="What share of events must be good over a rolling window; what is left of the rest is the error budget."
      formLabel={slo ? 'Edit SLO' : 'New SLO'}
      {...frame}
      save={() =>
        frame.save().catch((error: unknown) => {
          throw flatRefusal(error);
        })
      }
      saved={(saved) => ({
        title: slo ? 'SLO Updated' : 'SLO Added',
        description: `${saved.name} aims at ${saved.target}% over ${windowText(saved.window)}.`,
      })}
      failure="Failed to save the SLO."
      onClose={onClose}
    >
      <TextField label="Name" {...form.field('name')} placeholder="Checkout availability" />
      <FormField label="Description" hint="Optional: what it promises, and to whom." problem={form.problem('description')}>
        {(described) => (
          <TextArea value={form.draft.description} onChange={(event) => form.change('description', event.target.value)} {...described} />
        )}
      </FormField>
      {/* each field at the top of its column: a longer hint beside it would otherwise push a control down */}
      <FieldRow $min={160} style={{ alignItems: 'start' }}>
        <TextField label="Target (%)" inputMode="decimal" hint="99.9 leaves 0.1% of events as budget." {...form.field('target')} />
        <FormField label="Window" hint="Rolling, judged every minute." problem={form.problem('window')}>
          {(described) => (
            <Select value={form.draft.window} onChange={(event) => form.change('window', event.target.value as SloWindow)} {...described}>
              {SLO_WINDOWS.map((window) => (
                <option key={window} value={window}>
                  {windowText(window)}
                </option>
              ))}
            </Select>
          )}
        </FormField>
      </FieldRow>
      <IndicatorFields form={form} choices={choices} domainAccess={domainAccess} />
    </FormDialog>
  );
}
