import { apiErrorMessage, useBulkBreakersMutation } from '@cbh/api-client';
import { BREAKER_BULK_TEXT, type BreakerBulkAction, type BreakerConfigView } from '@cbh/contracts';
import { SelectionBar, useBulkConfirmation } from '@cbh/ui';
import { ConfirmDialog, OnceOpened } from '../breaker-detail/lazy-dialogs';

/**
 * The wall's toolbar for the chosen breakers: select all shown, how many are chosen, and the actions the person
 * may take on them; one confirmation says how many, which and what happens, and a toast sums the outcomes up. The
 * breakers that failed stay chosen.
 */
export function BreakerBulkActions({
  shown,
  selected,
  actions,
  selectAll,
  setSelected,
}: {
  /** The breakers the wall shows now, its filters applied, in its order. */
  shown: readonly BreakerConfigView[];
  selected: ReadonlySet<number>;
  actions: readonly BreakerBulkAction[];
  selectAll: (ids: readonly number[], all: boolean) => void;
  setSelected: (ids: ReadonlySet<number>) => void;
}) {
  const [bulk, { isLoading }] = useBulkBreakersMutation();
  // only what is shown is acted on: a breaker chosen and then filtered out is not changed unseen
  const chosen = shown.filter((breaker) => selected.has(breaker.id));
  const { ask, dialog } = useBulkConfirmation({
    noun: 'breaker',
    texts: BREAKER_BULK_TEXT,
    chosen,
    run: (action, ids) => bulk({ action, ids }).unwrap(),
    setSelected,
    errorText: apiErrorMessage,
    pending: isLoading,
  });

  return (
    <>
      <SelectionBar
        label="Actions on the chosen breakers"
        shown={shown.length}
        selected={chosen.length}
        onSelectAll={(all) =>
          selectAll(
            shown.map((breaker) => breaker.id),
            all,
          )
        }
        actions={actions.map((action) => ({ action, label: BREAKER_BULK_TEXT[action].label }))}
        onAction={ask}
      />
      <OnceOpened open={dialog.open}>
        <ConfirmDialog {...dialog} />
      </OnceOpened>
    </>
  );
}
