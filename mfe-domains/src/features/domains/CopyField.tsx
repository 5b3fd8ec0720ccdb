import { useId, useRef } from 'react';
import styled from 'styled-components';
import { Button, TextInput, useCopyText, VisuallyHidden } from '@cbh/ui';

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

const Field = styled.div`
  display: grid;
  gap: 4px;
  label {
    font-size: 13px;
    font-weight: 500;
  }
`;

/** A value to paste elsewhere (a DNS record), read-only and selectable, with a Copy button. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const { copy, label: copyLabel } = useCopyText(value, input);
  return (
    <Field>
      <label htmlFor={id}>{label}</label>
      <Row>
        <TextInput id={id} ref={input} value={value} readOnly onClick={(event) => event.currentTarget.select()} />
        <Button type="button" $variant="outline" onClick={copy}>
          {copyLabel}
          <VisuallyHidden> {label}</VisuallyHidden>
        </Button>
      </Row>
    </Field>
  );
}
