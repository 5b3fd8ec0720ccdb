import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from '@cbh/ui';
import { DisabledReason } from './DisabledReason';

/** A row's button, or the same button disabled with the reason beside it when the signed-in user may not use it. */
export function RowAction({
  reason,
  variant,
  onClick,
  children,
}: {
  reason: string | null;
  variant: ButtonVariant;
  onClick: () => void;
  children: ReactNode;
}) {
  if (!reason) {
    return (
      <Button $variant={variant} onClick={onClick}>
        {children}
      </Button>
    );
  }
  return (
    <DisabledReason reason={reason}>
      <Button $variant={variant} disabled>
        {children}
      </Button>
    </DisabledReason>
  );
}
