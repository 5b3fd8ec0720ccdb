import { Button, FormField, Problem, Select, WrapRow } from '@cbh/ui';
import { DialogActions } from '@cbh/ui/overlays';

/** A select of listed values by their labels (an incident's impact, an update's status), in its FormField. */
export function ListField<Value extends string>({
  label,
  hint,
  values,
  labels,
  value,
  onChange,
}: {
  label: string;
  hint?: string;
  values: readonly Value[];
  labels: Readonly<Record<Value, string>>;
  value: Value;
  onChange: (value: Value) => void;
}) {
  return (
    <FormField label={label} hint={hint}>
      {(described) => (
        <Select value={value} onChange={(event) => onChange(event.target.value as Value)} {...described}>
          {values.map((each) => (
            <option key={each} value={each}>
              {labels[each]}
            </option>
          ))}
        </Select>
      )}
    </FormField>
  );
}

/**
 * The end of a form: why the server refused it, if it did, then its buttons: in a dialog, Cancel and the submit button
 * at its foot; in a page, the submit button and Cancel in a row under the fields.
 */
export function FormEnd({
  refusal,
  submit,
  disabled,
  onCancel,
  dialog = false,
}: {
  refusal: string | null | undefined;
  /** the submit button's words, 'Saving...' while the form is sent */
  submit: string;
  disabled?: boolean;
  onCancel: () => void;
  dialog?: boolean;
}) {
  const cancel = (
    <Button type="button" $variant="outline" onClick={onCancel}>
      Cancel
    </Button>
  );
  const send = (
    <Button type="submit" disabled={disabled}>
      {submit}
    </Button>
  );
  return (
    <>
      {refusal ? <Problem role="alert">{refusal}</Problem> : null}
      {dialog ? (
        <DialogActions>
          {cancel}
          {send}
        </DialogActions>
      ) : (
        <WrapRow>
          {send}
          {cancel}
        </WrapRow>
      )}
    </>
  );
}
