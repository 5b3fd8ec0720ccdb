import { useId, type ComponentProps, type ReactNode } from 'react';
import styled from 'styled-components';
import { SECRET_SET_TEXT } from '@cbh/contracts';
import { Combobox, FieldLabel, Fieldset, TextInput, theme } from '@cbh/ui';

const Field = styled.div`
  display: grid;
  gap: 6px;
  min-width: 0;
`;

const Hint = styled.span`
  font-size: 13px;
  color: ${theme.colors.muted};
`;

export const Problem = styled.span`
  font-size: 13px;
  color: ${theme.colors.destructive};
`;

/** Two short fields side by side where there is room (a rule's flapping limits). */
export const FieldPair = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(180px, 100%), 1fr));
  gap: 16px;
`;

/** What a control gets to point at its hint and its problem. */
interface Described {
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

function describedBy(id: string, hint?: string, problem?: string): Described {
  const ids = [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': problem ? true : undefined, 'aria-describedby': ids || undefined };
}

/** A field's hint and its problem, with the ids describedBy points the control (or the group) at. */
function Description({ id, name, hint, problem }: { id: string; name: string; hint?: string; problem?: string }) {
  return (
    <>
      {hint ? <Hint id={`${id}-hint`}>{hint}</Hint> : null}
      {problem ? (
        <Problem id={`${id}-problem`}>
          {name}: {problem}
        </Problem>
      ) : null}
    </>
  );
}

/**
 * A labelled control with its hint and, under it, its problem named like the API names it ("URL: must be an https
 * URL"); both sit outside the label, so they are the control's description rather than part of its name.
 */
export function FormField({
  label,
  hint,
  problem,
  children,
}: {
  label: string;
  hint?: string;
  problem?: string;
  children: (described: Described) => ReactNode;
}) {
  const id = useId();
  return (
    <Field>
      <FieldLabel>
        {label}
        {children(describedBy(id, hint, problem))}
      </FieldLabel>
      <Description id={id} name={label} hint={hint} problem={problem} />
    </Field>
  );
}

const Group = styled(Fieldset)`
  gap: 8px;
  legend {
    padding: 0;
    margin-bottom: 8px;
    font-size: 14px;
    font-weight: 500;
  }
`;

const Options = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 6px 16px;
`;

/** A checkbox with its label after it, in the size of the other labels. */
export const CheckLabel = styled.label`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  font-size: 14px;
`;

interface Choice<Value extends string> {
  value: Value;
  label: string;
}

/** Checkboxes for a list of values (events, channels, severities), named by their legend. */
export function CheckboxGroup<Value extends string>({
  legend,
  choices,
  value: chosen,
  onChange,
  hint,
  problem,
}: {
  legend: string;
  choices: readonly Choice<Value>[];
  /** The values ticked, in the order of the choices. */
  value: readonly Value[];
  onChange: (chosen: Value[]) => void;
  hint?: string;
  problem?: string;
}) {
  const id = useId();
  // kept in the order of the choices, whatever order they were ticked in
  const toggle = (value: Value, on: boolean) =>
    onChange(choices.map((choice) => choice.value).filter((each) => (each === value ? on : chosen.includes(each))));
  return (
    // a group takes no aria-invalid; its description carries the problem
    <Group aria-describedby={describedBy(id, hint, problem)['aria-describedby']}>
      <legend>{legend}</legend>
      <Options>
        {choices.map((choice) => (
          <label key={choice.value}>
            <input
              type="checkbox"
              checked={chosen.includes(choice.value)}
              onChange={(event) => toggle(choice.value, event.target.checked)}
            />
            {choice.label}
          </label>
        ))}
      </Options>
      <Description id={id} name={legend} hint={hint} problem={problem} />
    </Group>
  );
}

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
    <Field>
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
      <Description id={id} name={label} hint={hint} problem={problem} />
    </Field>
  );
}
