import type { MouseEvent } from 'react';
import * as RadixToast from '@radix-ui/react-toast';
import styled from 'styled-components';
import { TOAST } from '@cbh/contracts';
import { theme } from './theme';
import { dismissToast, useToasts, type ToastInput } from './toast-store';

const Viewport = styled(RadixToast.Viewport)`
  position: fixed;
  bottom: 0;
  right: 0;
  z-index: 100;
  display: flex;
  flex-direction: column;
  gap: 8px;
  width: 100%;
  max-width: ${TOAST.maxWidthPx}px;
  margin: 0;
  padding: 16px;
  list-style: none;
  outline: none;
`;

const Root = styled(RadixToast.Root)<{ $destructive: boolean }>`
  display: grid;
  grid-template-columns: 1fr auto;
  gap: 4px 12px;
  padding: 14px 16px;
  border-radius: ${theme.radius};
  border: 1px solid ${({ $destructive }) => ($destructive ? theme.colors.destructive : theme.colors.border)};
  background: ${({ $destructive }) => ($destructive ? theme.colors.destructive : theme.colors.surface)};
  color: ${({ $destructive }) => ($destructive ? theme.colors.primaryText : theme.colors.text)};
  box-shadow: 0 8px 24px rgb(15 23 42 / 0.15);
  &[data-swipe='move'] {
    transform: translateX(var(--radix-toast-swipe-move-x));
  }
  &[data-swipe='end'] {
    transform: translateX(var(--radix-toast-swipe-end-x));
  }
`;

const Title = styled(RadixToast.Title)`
  grid-column: 1;
  font-weight: 600;
  font-size: 14px;
`;

const Description = styled(RadixToast.Description)`
  grid-column: 1;
  font-size: 14px;
`;

const ActionLink = styled.a`
  grid-column: 1;
  justify-self: start;
  margin-top: 4px;
  font-size: 14px;
  font-weight: 600;
  color: inherit;
`;

const Close = styled(RadixToast.Close)`
  grid-column: 2;
  grid-row: 1 / span 2;
  align-self: start;
  /* a finger's target (WCAG 2.5.8) around the small cross */
  width: 28px;
  height: 28px;
  margin: -4px -8px 0 0;
  padding: 0;
  border: none;
  background: transparent;
  color: inherit;
  font-size: 16px;
  cursor: pointer;
`;

/** A plain left click, which the app may route itself; a modified one (new tab, new window) is the browser's. */
const isPlainClick = (event: MouseEvent<HTMLAnchorElement>) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * A toast's action: a real link, so it works without routing and opens in a new tab; `onNavigate` lets the host
 * route a plain click itself, as this library knows no router. Used, it closes its toast.
 */
function ToastAction({
  id,
  action,
  onNavigate,
}: {
  id: number;
  action: NonNullable<ToastInput['action']>;
  onNavigate?: (href: string) => void;
}) {
  return (
    <RadixToast.Action asChild altText={`${action.label}: ${action.href}`}>
      <ActionLink
        href={action.href}
        onClick={(event) => {
          if (!onNavigate || !isPlainClick(event)) return;
          // preventing the browser's navigation also stops Radix closing the toast, so it is closed here
          event.preventDefault();
          dismissToast(id);
          onNavigate(action.href);
        }}
      >
        {action.label}
      </ActionLink>
    </RadixToast.Action>
  );
}

/** The notification region on Radix Toast, loaded by Toaster with the first toast. */
export function ToastRegion({ onNavigate }: { onNavigate?: (href: string) => void }) {
  const toasts = useToasts();
  return (
    <RadixToast.Provider duration={TOAST.durationMs} swipeDirection={TOAST.swipeDirection} swipeThreshold={TOAST.swipeThresholdPx}>
      {toasts.map((t) => (
        <Root
          key={t.id}
          open={t.open}
          $destructive={t.variant === 'destructive'}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
        >
          <Title>{t.title}</Title>
          {t.description ? <Description>{t.description}</Description> : null}
          {t.action ? <ToastAction id={t.id} action={t.action} onNavigate={onNavigate} /> : null}
          <Close aria-label="Close">×</Close>
        </Root>
      ))}
      <Viewport hotkey={[...TOAST.hotkey]} />
    </RadixToast.Provider>
  );
}
