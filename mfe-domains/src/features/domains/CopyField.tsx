import { useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { Button, TextInput, VisuallyHidden } from '@cbh/ui';

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

const COPIED_FOR_MS = 2000;

/** The clipboard API needs a secure context; elsewhere the selected text is copied the old way. */
async function copy(text: string, input: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input?.select();
    return typeof document.execCommand === 'function' && document.execCommand('copy');
  }
}

/** A value to paste elsewhere (a DNS record), read-only and selectable, with a Copy button. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <Field>
      <label htmlFor={id}>{label}</label>
      <Row>
        <TextInput id={id} ref={input} value={value} readOnly onClick={(event) => event.currentTarget.select()} />
        <Button type="button" $variant="outline" onClick={async () => setState((await copy(value, input.current)) ? 'copied' : 'failed')}>
          {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy' : 'Copy'}
          <VisuallyHidden> {label}</VisuallyHidden>
        </Button>
      </Row>
    </Field>
  );
}
