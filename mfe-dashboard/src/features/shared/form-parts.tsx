import { useId, type ComponentProps } from 'react';
import { SECRET_SET_TEXT } from '@cbh/contracts';
import { CheckLabel, Combobox, describedBy, FieldBox, FieldDescription, FieldLabel, FormField, TextInput } from '@cbh/ui';

/** What a text or secret field takes: its words and its value (useFormDraft().field gives the last three). */
interface InputFieldProps {
  label: string;
  hint?: string;
  placeholder?: string;
  value: string;
  onChange: (value: string) => void;
  problem?: string;
}

/** A TextInput in its FormField, its value and change wired; `input` holds what sets the kind of input apart. */
function InputField({ field, ...input }: { field: InputFieldProps } & Omit<ComponentProps<typeof TextInput>, 'value' | 'onChange'>) {
  return (
    <FormField label={field.label} hint={field.hint} problem={field.problem}>
      {(described) => (
        <TextInput
          {...input}
          value={field.value}
          onChange={(event) => field.onChange(event.target.value)}
          placeholder={field.placeholder}
          {...described}
        />
      )}
    </FormField>
  );
}

/** A one-line text field of the forms: its label, value, hint and problem (FormField around a TextInput). */
export function TextField({
  type = 'text',
  inputMode,
  ...field
}: InputFieldProps & {
  type?: 'text' | 'url';
  /** 'numeric' or 'decimal' brings up a phone's number pad; the field stays text, so what was typed is judged as typed. */
  inputMode?: 'numeric' | 'decimal';
}) {
  return <InputField field={field} type={type} inputMode={inputMode} autoComplete="off" spellCheck={type === 'url' ? false : undefined} />;
}

/** Kept secrets are never sent back: an edit shows this where the saved URL, secret or token would be. */
export const KEEP_PLACEHOLDER = `${SECRET_SET_TEXT} — leave empty to keep`;

/**
 * A password field for a secret the server keeps sealed (a webhook's signing secret, a scrape target's token): typed,
 * it replaces the kept one; left empty, the kept one stays; `remove` offers to drop a kept one.
 */
export function SecretField({
  kept,
  remove,
  ...field
}: InputFieldProps & {
  /** Whether the server holds one now (the placeholder is shown while none is). */
  kept: boolean;
  remove?: { label: string; checked: boolean; onChange: (checked: boolean) => void };
}) {
  return (
    <>
      <InputField
        field={{ ...field, placeholder: kept ? KEEP_PLACEHOLDER : field.placeholder }}
        type="password"
        disabled={remove?.checked}
        autoComplete="new-password"
      />
      {kept && remove ? (
        <CheckLabel>
          <input type="checkbox" checked={remove.checked} onChange={(event) => remove.onChange(event.target.checked)} />
          {remove.label}
        </CheckLabel>
      ) : null}
    </>
  );
}

/**
 * Names picked from a list that searches (breakers, domains), as chips; a name the list does not hold is taken with
 * `unknown(name)` shown under it. The label points at the input alone: around the chips' remove buttons, a click on
 * it would press the first of them.
 */
export function NamesField({
  label,
  hint,
  problem,
  value,
  onChange,
  options,
  unknown,
  placeholder,
}: {
  label: string;
  hint?: string;
  problem?: string;
  value: readonly string[];
  onChange: (names: string[]) => void;
  /** The names to pick from; undefined when they cannot be read (every name is then taken as typed). */
  options: readonly string[] | undefined;
  unknown: (name: string) => string;
  placeholder?: string;
}) {
  const id = useId();
  const described = describedBy(id, hint, problem);
  return (
    <FieldBox>
      <FieldLabel htmlFor={`${id}-input`}>{label}</FieldLabel>
      <Combobox
        id={`${id}-input`}
        label={label}
        value={value}
        onChange={onChange}
        options={options}
        unknown={unknown}
        placeholder={placeholder}
        describedBy={described['aria-describedby']}
        invalid={described['aria-invalid']}
      />
      <FieldDescription id={id} name={label} hint={hint} problem={problem} />
    </FieldBox>
  );
}
