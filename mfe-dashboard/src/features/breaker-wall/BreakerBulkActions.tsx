import { useState } from 'react';
import { apiErrorMessage, useBulkBreakersMutation } from '@cbh/api-client';
import { BREAKER_BULK_TEXT, bulkItemNames, bulkSummary, type BreakerBulkAction, type BreakerConfigView } from '@cbh/contracts';
import { plural, SelectionBar, toast } from '@cbh/ui';
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
  const [asking, setAsking] = useState<BreakerBulkAction | null>(null);
  const [bulk, { isLoading }] = useBulkBreakersMutation();
  // only what is shown is acted on: a breaker chosen and then filtered out is not changed unseen
  const chosen = shown.filter((breaker) => selected.has(breaker.id));
  const text = asking ? BREAKER_BULK_TEXT[asking] : null;
  const count = plural(chosen.length, 'breaker');

  const confirm = async () => {
    if (!asking || !text) return;
    try {
      const result = await bulk({ action: asking, ids: chosen.map((breaker) => breaker.id) }).unwrap();
      const failed = result.results.filter((outcome) => !outcome.ok);
      toast({
        title: failed.length === 0 ? `${text.label}: done` : `${text.label}: not every breaker changed`,
        description: bulkSummary(result, text.done),
        variant: failed.length === 0 ? 'default' : 'destructive',
      });
      setSelected(new Set(failed.map((outcome) => outcome.id)));
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'The action could not be applied.', variant: 'destructive' });
    }
    setAsking(null);
  };

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
        onAction={setAsking}
      />
      <OnceOpened open={text !== null}>
        <ConfirmDialog
          open={text !== null}
          onOpenChange={(open) => (open ? undefined : setAsking(null))}
          title={text ? `${text.label} ${count}?` : ''}
          description={text ? `${bulkItemNames(chosen.map((breaker) => breaker.name))}. ${text.effect}` : ''}
          confirmLabel={text ? `${text.label} ${count}` : ''}
          pendingLabel="Applying..."
          pending={isLoading}
          onConfirm={confirm}
        />
      </OnceOpened>
    </>
  );
}
