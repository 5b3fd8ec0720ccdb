import { useId, useRef } from 'react';
import styled from 'styled-components';
import { Button, TextInput, theme, useCopyText } from '@cbh/ui';

export const TOKEN_SHOWN_ONCE_WARNING = 'Copy this token now: it will not be shown again.';

const Panel = styled.div`
  display: grid;
  gap: 8px;
  padding: 12px;
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  label {
    font-size: 13px;
    font-weight: 500;
  }
`;

const Warning = styled.p`
  margin: 0;
  font-size: 14px;
  font-weight: 500;
  color: ${theme.colors.destructive};
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

/**
 * A new access token, the one time it is shown: selectable, with a Copy button that says "Copied" once it did,
 * and the warning that it will not be shown again (only its hash is kept).
 */
export function TokenSecret({ token }: { token: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const { copy, label: copyLabel } = useCopyText(token, input);
  return (
    <Panel>
      <Warning role="alert">{TOKEN_SHOWN_ONCE_WARNING}</Warning>
      <label htmlFor={id}>Access token</label>
      <Row>
        <TextInput id={id} ref={input} value={token} readOnly onClick={(event) => event.currentTarget.select()} />
        <Button type="button" onClick={copy}>
          {copyLabel}
        </Button>
      </Row>
    </Panel>
  );
}
