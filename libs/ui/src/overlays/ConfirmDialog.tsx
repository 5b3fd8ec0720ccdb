import * as RadixAlertDialog from '@radix-ui/react-alert-dialog';
import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from '../Button';
import { theme } from '../theme';
import { DialogActions, overlayStyle, panelStyle } from './Dialog';

const Overlay = styled(RadixAlertDialog.Overlay)`
  ${overlayStyle}
`;
const Panel = styled(RadixAlertDialog.Content)`
  ${panelStyle}
`;
const Description = styled(RadixAlertDialog.Description)`
  color: ${theme.colors.muted};
  font-size: 14px;
`;
const DestructiveButton = styled(Button)`
  background: ${theme.colors.destructive};
  border-color: ${theme.colors.destructive};
`;

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** Shown on the confirm button while the action runs. */
  pendingLabel?: string;
  pending?: boolean;
  onConfirm: () => void;
}

/** Asks before an action that cannot be undone; focus starts on Cancel, the safe choice. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pendingLabel,
  pending,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <RadixAlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixAlertDialog.Portal>
        <Overlay />
        <Panel>
          <RadixAlertDialog.Title>{title}</RadixAlertDialog.Title>
          <Description>{description}</Description>
          <DialogActions>
            <RadixAlertDialog.Cancel asChild>
              <Button $variant="outline">Cancel</Button>
            </RadixAlertDialog.Cancel>
            <DestructiveButton
              disabled={pending}
              onClick={(event) => {
                // stay open until the action has finished; the caller closes it
                event.preventDefault();
                onConfirm();
              }}
            >
              {pending && pendingLabel ? pendingLabel : confirmLabel}
            </DestructiveButton>
          </DialogActions>
        </Panel>
      </RadixAlertDialog.Portal>
    </RadixAlertDialog.Root>
  );
}
