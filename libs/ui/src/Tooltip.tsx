import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { ReactNode } from 'react';
import styled from 'styled-components';
import { TOOLTIP } from '@cbh/contracts';
import { theme } from './theme';

export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <RadixTooltip.Provider delayDuration={TOOLTIP.delayMs} skipDelayDuration={TOOLTIP.skipDelayMs}>
      {children}
    </RadixTooltip.Provider>
  );
}

const Content = styled(RadixTooltip.Content)`
  padding: 4px 8px;
  border-radius: 6px;
  font-size: 12px;
  color: ${theme.colors.primaryText};
  background: ${theme.colors.text};
`;

export function Tooltip({
  content,
  side = 'top',
  children,
}: {
  content: ReactNode;
  side?: 'top' | 'right' | 'bottom' | 'left';
  children: ReactNode;
}) {
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <Content side={side} sideOffset={4}>
          {content}
        </Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
