import { apiErrorMessage, useBulkBreakersMutation } from '@cbh/api-client';
import { BREAKER_BULK_TEXT, type BreakerBulkAction, type BreakerConfigView } from '@cbh/contracts';
import { BulkActionsBar, type BulkSelection } from '@cbh/ui';
import { ConfirmDialog, OnceOpened } from '../breaker-detail/lazy-dialogs';

/**
 * The wall's toolbar for the chosen breakers: select all shown, how many are chosen, and the actions the person
 * may take on them; one confirmation says how many, which and what happens, and a toast sums the outcomes up. The
 * breakers that failed stay chosen.
 */
export function BreakerBulkActions(selection: BulkSelection<BreakerBulkAction, BreakerConfigView>) {
  const [bulk, { isLoading }] = useBulkBreakersMutation();
  return (
    <BulkActionsBar
      noun="breaker"
      texts={BREAKER_BULK_TEXT}
      {...selection}
      nameOf={(breaker) => breaker.name}
      run={(action, ids) => bulk({ action, ids }).unwrap()}
      errorText={apiErrorMessage}
      pending={isLoading}
    >
      {(dialog) => (
        <OnceOpened open={dialog.open}>
          <ConfirmDialog {...dialog} />
        </OnceOpened>
      )}
    </BulkActionsBar>
  );
}
