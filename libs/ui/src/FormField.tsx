import { useId, type ReactNode } from 'react';
import styled from 'styled-components';
import { Fieldset } from './Fieldset';
import { FieldLabel } from './Select';
import { theme } from './theme';

/** A form's fields and actions, one under the other. */
export const Form = styled.form`
  display: grid;
  gap: 16px;
  min-width: 0;
`;

/** The column a label, its control and their description stand in. */
export const FieldBox = styled.div`
  display: grid;
  gap: 6px;
  min-width: 0;
`;

/** What a field says about its control: what to type, the form an address takes. */
export const Hint = styled.span`
  font-size: 13px;
  font-weight: 400;
  color: ${theme.colors.muted};
`;

/** What is wrong with a field, or (role="alert") why the server refused the form. */
export const Problem = styled.span`
  font-size: 13px;
  color: ${theme.colors.destructive};
`;

/**
 * Two or three short fields side by side where there is room, stacked where there is not: a column is at least
 * `$min` pixels wide (200 unless told), or the whole row on a narrower screen.
 */
export const FieldRow = styled.div<{ $min?: number }>`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(${({ $min = 200 }) => $min}px, 100%), 1fr));
  gap: 16px;
  min-width: 0;
`;

/** A checkbox with its label after it, in the size of the other labels. */
export const CheckLabel = styled.label`
  display: flex;
  align-items: center;
  gap: 8px;
  font-size: 14px;
`;

/** Related controls named by their legend, which is set like a field's label. */
export const FieldGroup = styled(Fieldset)`
  gap: 8px;
  legend {
    padding: 0;
    margin-bottom: 8px;
    font-size: 14px;
    font-weight: 500;
  }
`;

/** What a control gets to point at its hint and its problem. */
export interface Described {
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/** The attributes that point a control (or, by its aria-describedby alone, a group) at the description of field `id`. */
export function describedBy(id: string, hint?: string, problem?: string): Described {
  const ids = [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': problem ? true : undefined, 'aria-describedby': ids || undefined };
}

/** A field's hint and its problem named like the API names it ("URL: must be an https URL"), with the ids describedBy points at. */
export function FieldDescription({ id, name, hint, problem }: { id: string; name: string; hint?: string; problem?: string }) {
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
 * A labelled control with its hint and, under it, its problem ("Slug: must be lower-case letters…"); both sit outside
 * the label, so they are the control's description rather than part of its name. `children` draws the control with
 * the attributes it is given.
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
    <FieldBox>
      <FieldLabel>
        {label}
        {children(describedBy(id, hint, problem))}
      </FieldLabel>
      <FieldDescription id={id} name={label} hint={hint} problem={problem} />
    </FieldBox>
  );
}

const Options = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 6px 16px;
`;

/** One box of a CheckboxGroup: the value it stands for and its label. */
export interface Choice<Value extends string> {
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
    <FieldGroup aria-describedby={describedBy(id, hint, problem)['aria-describedby']}>
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
      <FieldDescription id={id} name={legend} hint={hint} problem={problem} />
    </FieldGroup>
  );
}
