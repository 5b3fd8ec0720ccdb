import type { ReactNode } from 'react';
import styled from 'styled-components';
import { theme, Tooltip } from '@cbh/ui';

// a disabled control receives no pointer or focus events, so the tooltip hangs on a focusable wrapper around it
const Anchor = styled.span`
  display: inline-flex;
  border-radius: ${theme.radius};
  &:focus-visible {
    outline: 2px solid ${theme.colors.primary};
    outline-offset: 2px;
  }
`;

/** Shows why the disabled control inside it cannot be used, on hover and on keyboard focus. */
export function DisabledReason({ reason, children }: { reason: string; children: ReactNode }) {
  return (
    <Tooltip content={reason}>
      <Anchor tabIndex={0} data-reason={reason}>
        {children}
      </Anchor>
    </Tooltip>
  );
}
