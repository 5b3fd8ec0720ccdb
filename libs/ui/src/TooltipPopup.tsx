import * as RadixTooltip from '@radix-ui/react-tooltip';
import { useEffect, useRef, useSyncExternalStore, type ReactElement, type ReactNode } from 'react';
import styled from 'styled-components';
import { TOOLTIP } from '@cbh/contracts';
import { theme } from './theme';

/** How a visitor asked for a tooltip before its code had arrived. */
export type TooltipInterest = 'pointer' | 'focus';

// Radix keeps the skip delay (a tooltip shown within TOOLTIP.skipDelayMs of another opens at once) in a provider
// around the app, which would have to load with the first paint. Each popup has its own provider instead, and
// they share that state here.
let skipping = false;
let skipTimer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();
const setSkipping = (value: boolean) => {
  skipping = value;
  listeners.forEach((listener) => listener());
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const isSkipping = () => skipping;

function tooltipOpened() {
  clearTimeout(skipTimer);
  if (!skipping) setSkipping(true);
}
function tooltipClosed() {
  clearTimeout(skipTimer);
  skipTimer = setTimeout(() => setSkipping(false), TOOLTIP.skipDelayMs);
}

const Content = styled(RadixTooltip.Content)`
  padding: 4px 8px;
  border-radius: 6px;
  font-size: 12px;
  color: ${theme.colors.primaryText};
  background: ${theme.colors.text};
`;

/**
 * A trigger with its Radix tooltip, which Tooltip renders once this module has loaded. `openedBy` says how the
 * visitor asked for it while it loaded: the popup then opens as it mounts (for focus, on the trigger that
 * replaced the focused one).
 */
export function TooltipPopup({
  content,
  side,
  openedBy,
  children,
}: {
  content: ReactNode;
  side: 'top' | 'right' | 'bottom' | 'left';
  openedBy?: TooltipInterest;
  children: ReactElement;
}) {
  const trigger = useRef<HTMLButtonElement>(null);
  const skip = useSyncExternalStore(subscribe, isSkipping, isSkipping);
  // only the request made while loading counts: later ones reach Radix's own handlers
  const requested = useRef(openedBy).current;
  useEffect(() => {
    if (requested === undefined) return;
    tooltipOpened();
    if (requested === 'focus') trigger.current?.focus();
  }, [requested]);

  return (
    <RadixTooltip.Provider delayDuration={TOOLTIP.delayMs} skipDelayDuration={TOOLTIP.skipDelayMs}>
      <RadixTooltip.Root
        defaultOpen={requested !== undefined}
        delayDuration={skip ? 0 : TOOLTIP.delayMs}
        onOpenChange={(open) => (open ? tooltipOpened() : tooltipClosed())}
      >
        <RadixTooltip.Trigger asChild ref={trigger}>
          {children}
        </RadixTooltip.Trigger>
        <RadixTooltip.Portal>
          <Content side={side} sideOffset={4}>
            {content}
          </Content>
        </RadixTooltip.Portal>
      </RadixTooltip.Root>
    </RadixTooltip.Provider>
  );
}
