import { useState } from 'react';
import { apiErrorMessage, useBulkDomainsMutation } from '@cbh/api-client';
import { bulkItemNames, bulkSummary, DOMAIN_BULK_TEXT, type DomainBulkAction, type DomainView } from '@cbh/contracts';
import { plural, SelectionBar, toast } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';

/**
 * The portfolio's toolbar for the chosen domains: select all shown, how many are chosen, Verify and Delete; one
 * confirmation says how many, which and what happens, and a toast sums the outcomes up. The domains that failed
 * stay chosen.
 */
export function DomainBulkActions({
  shown,
  selected,
  actions,
  selectAll,
  setSelected,
}: {
  /** The domains the portfolio shows, in its order. */
  shown: readonly DomainView[];
  selected: ReadonlySet<number>;
  actions: readonly DomainBulkAction[];
  selectAll: (ids: readonly number[], all: boolean) => void;
  setSelected: (ids: ReadonlySet<number>) => void;
}) {
  const [asking, setAsking] = useState<DomainBulkAction | null>(null);
  const [bulk, { isLoading }] = useBulkDomainsMutation();
  const chosen = shown.filter((domain) => selected.has(domain.id));
  const text = asking ? DOMAIN_BULK_TEXT[asking] : null;
  const count = plural(chosen.length, 'domain');

  const confirm = async () => {
    if (!asking || !text) return;
    try {
      const result = await bulk({ action: asking, ids: chosen.map((domain) => domain.id) }).unwrap();
      const failed = result.results.filter((outcome) => !outcome.ok);
      toast({
        title: failed.length === 0 ? `${text.label}: done` : `${text.label}: not every domain changed`,
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
        label="Actions on the chosen domains"
        shown={shown.length}
        selected={chosen.length}
        onSelectAll={(all) =>
          selectAll(
            shown.map((domain) => domain.id),
            all,
          )
        }
        actions={actions.map((action) => ({ action, label: DOMAIN_BULK_TEXT[action].label }))}
        onAction={setAsking}
      />
      <ConfirmDialog
        open={text !== null}
        onOpenChange={(open) => (open ? undefined : setAsking(null))}
        title={text ? `${text.label} ${count}?` : ''}
        description={text ? `${bulkItemNames(chosen.map((domain) => domain.domain))}. ${text.effect}` : ''}
        confirmLabel={text ? `${text.label} ${count}` : ''}
        pendingLabel="Applying..."
        pending={isLoading}
        onConfirm={confirm}
      />
    </>
  );
}
