import * as RadixDialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from '../theme';

export const overlayStyle = `
  position: fixed;
  inset: 0;
  background: rgba(15, 23, 42, 0.45);
  z-index: 40;
`;

export const panelStyle = `
  position: fixed;
  top: 50%;
  left: 50%;
  transform: translate(-50%, -50%);
  width: min(520px, calc(100vw - 32px));
  max-height: calc(100vh - 32px);
  overflow-y: auto;
  padding: 24px;
  border-radius: ${theme.radius};
  background: ${theme.colors.surface};
  box-shadow: 0 20px 50px rgba(15, 23, 42, 0.25);
  z-index: 41;
  display: grid;
  gap: 16px;
  h2 { margin: 0; font-size: 18px; }
  p { margin: 0; }
`;

const Overlay = styled(RadixDialog.Overlay)`
  ${overlayStyle}
`;
const Panel = styled(RadixDialog.Content)<{ $wide?: boolean }>`
  ${panelStyle}
  ${({ $wide }) => ($wide ? 'width: min(880px, calc(100vw - 32px));' : '')}
`;
const Description = styled(RadixDialog.Description)`
  color: ${theme.colors.muted};
  font-size: 14px;
`;

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  /** The element that opens the dialog (optional: a dialog can also be opened from state). */
  trigger?: ReactNode;
  /** A panel for a whole record (up to 880 px) rather than a short form. */
  wide?: boolean;
  children: ReactNode;
}

/** A modal dialog: focus kept inside, Escape and the overlay close it, its title names it for screen readers. */
export function Dialog({ open, onOpenChange, title, description, trigger, wide, children }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger> : null}
      <RadixDialog.Portal>
        <Overlay />
        {/* without a description, say so, so Radix does not point aria-describedby at nothing */}
        <Panel $wide={wide} {...(description ? {} : { 'aria-describedby': undefined })}>
          <RadixDialog.Title>{title}</RadixDialog.Title>
          {description ? <Description>{description}</Description> : null}
          {children}
        </Panel>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The row of buttons at the foot of a dialog, right-aligned. */
export const DialogActions = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: 8px;
`;
