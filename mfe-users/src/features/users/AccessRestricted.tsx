import { useEffect, useRef } from 'react';
import { AccessRestricted as AccessRestrictedCard, toast } from '@cbh/ui';

export const NO_ACCESS_TEXT = "You don't have permission to access User Management.";

/** Shown instead of the screen to accounts that may not manage users, with a one-time notification. */
export function AccessRestricted() {
  // a ref survives re-renders and React's development double-run of effects, so the toast shows once
  const notified = useRef(false);
  useEffect(() => {
    if (notified.current) return;
    notified.current = true;
    toast({ title: 'Access Denied', description: NO_ACCESS_TEXT, variant: 'destructive' });
  }, []);

  return <AccessRestrictedCard message={NO_ACCESS_TEXT} />;
}
