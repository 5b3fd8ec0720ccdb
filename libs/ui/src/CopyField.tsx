import { useId, useRef } from 'react';
import styled from 'styled-components';
import type { ButtonVariant } from './Button';
import { Button } from './Button';
import { useCopyText } from './copy-text';
import { TextInput } from './Select';
import { VisuallyHidden } from './Table';

const Field = styled.div<{ $gap: number }>`
  display: grid;
  gap: ${({ $gap }) => $gap}px;
  label {
    font-size: 13px;
    font-weight: 500;
  }
`;

const Row = styled.div`
  display: flex;
  gap: 8px;
  align-items: center;
  input {
    flex: 1;
    min-width: 0;
    font-family: ui-monospace, monospace;
    font-size: 13px;
  }
`;

export interface CopyFieldProps {
  label: string;
  value: string;
  buttonVariant?: ButtonVariant;
  /** Where a screen has several such fields, each Copy button must say which value it copies. */
  namesButton?: boolean;
  /** Space between the label and the field, in pixels. */
  gap?: number;
}

/** A value to paste elsewhere (a DNS record, a new token), read-only and selectable, with a Copy button. */
export function CopyField({ label, value, buttonVariant, namesButton = false, gap = 4 }: CopyFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const { copy, label: copyLabel } = useCopyText(value, input);
  return (
    <Field $gap={gap}>
      <label htmlFor={id}>{label}</label>
      <Row>
        <TextInput id={id} ref={input} value={value} readOnly onClick={(event) => event.currentTarget.select()} />
        <Button type="button" $variant={buttonVariant} onClick={copy}>
          {copyLabel}
          {namesButton && <VisuallyHidden> {label}</VisuallyHidden>}
        </Button>
      </Row>
    </Field>
  );
}
