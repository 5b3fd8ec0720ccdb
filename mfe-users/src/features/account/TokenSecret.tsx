import { useState } from 'react';
import styled from 'styled-components';
import { Button, theme } from '@cbh/ui';

export const SHOWN_ONCE_WARNING = 'Copy this token now: it will not be shown again.';

const Panel = styled.div`
  display: grid;
  gap: 10px;
  padding: 12px;
  border: 1px solid ${theme.colors.warning};
  border-radius: ${theme.radius};
  background: ${theme.colors.surface};
`;

const Secret = styled.code`
  display: block;
  padding: 8px;
  overflow-wrap: anywhere;
  font-size: 13px;
  background: ${theme.colors.background};
  border-radius: ${theme.radius};
  user-select: all;
`;

const Row = styled.div`
  display: flex;
  align-items: center;
  gap: 10px;
`;

/** A freshly created token, the only time its secret exists outside its holder's hands: shown with Copy and a warning. */
export function TokenSecret({ token }: { token: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () =>
    navigator.clipboard.writeText(token).then(
      () => setCopied('yes'),
      // a page without clipboard access (an insecure origin, a denied permission) still lets the person select it
      () => setCopied('failed'),
    );
  return (
    <Panel>
      <strong role="alert">{SHOWN_ONCE_WARNING}</strong>
      <Secret data-testid="token-secret">{token}</Secret>
      <Row>
        <Button type="button" onClick={copy}>
          Copy
        </Button>
        <span role="status">{copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Copy failed: select the token and copy it' : ''}</span>
      </Row>
    </Panel>
  );
}
