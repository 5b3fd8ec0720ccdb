import { useId, type ReactNode } from 'react';
import styled from 'styled-components';
import { FieldLabel, Fieldset, theme } from '@cbh/ui';

const FieldBox = styled.div`
  display: grid;
  gap: 6px;
  min-width: 0;
`;

export const Form = styled.form`
  display: grid;
  gap: 16px;
  min-width: 0;
`;

export const Hint = styled.span`
  font-size: 13px;
  font-weight: 400;
  color: ${theme.colors.muted};
`;

export const Problem = styled.span`
  font-size: 13px;
  color: ${theme.colors.destructive};
`;

/** Two or three short fields side by side where there is room. */
export const FieldRow = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(200px, 100%), 1fr));
  gap: 16px;
  min-width: 0;
`;

export const Check = styled.label`
  display: flex;
  align-items: center;
  gap: 8px;
  font-size: 14px;
`;

/** The group of a form's fields, disabled as a whole while it is sent. */
export const FormFields = styled(Fieldset)`
  min-width: 0;
`;

/** What a control gets to point at its hint and its problem. */
export interface Described {
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

/**
 * A labelled control with its hint and its problem under it ("Slug: must be lower-case letters…"), both outside
 * the label, so they describe the control rather than name it.
 */
export function Field({
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
  const ids = [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ');
  return (
    <FieldBox>
      <FieldLabel>
        {label}
        {children({ 'aria-invalid': problem ? true : undefined, 'aria-describedby': ids || undefined })}
      </FieldLabel>
      {hint ? <Hint id={`${id}-hint`}>{hint}</Hint> : null}
      {problem ? (
        <Problem id={`${id}-problem`}>
          {label}: {problem}
        </Problem>
      ) : null}
    </FieldBox>
  );
}
