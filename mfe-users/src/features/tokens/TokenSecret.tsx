import styled from 'styled-components';
import { CopyField, theme } from '@cbh/ui';

export const TOKEN_SHOWN_ONCE_WARNING = 'Copy this token now: it will not be shown again.';

const Panel = styled.div`
  display: grid;
  gap: 8px;
  padding: 12px;
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
`;

const Warning = styled.p`
  margin: 0;
  font-size: 14px;
  font-weight: 500;
  color: ${theme.colors.destructive};
`;

/**
 * A new access token, the one time it is shown: selectable, with a Copy button that says "Copied" once it did,
 * and the warning that it will not be shown again (only its hash is kept).
 */
export function TokenSecret({ token }: { token: string }) {
  return (
    <Panel>
      <Warning role="alert">{TOKEN_SHOWN_ONCE_WARNING}</Warning>
      <CopyField label="Access token" value={token} gap={8} />
    </Panel>
  );
}
