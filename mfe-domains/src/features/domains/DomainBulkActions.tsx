import { apiErrorMessage, useBulkDomainsMutation } from '@cbh/api-client';
import { DOMAIN_BULK_TEXT, type DomainBulkAction, type DomainView } from '@cbh/contracts';
import { SelectionBar, useBulkConfirmation } from '@cbh/ui';
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
  const [bulk, { isLoading }] = useBulkDomainsMutation();
  const chosen = shown.filter((domain) => selected.has(domain.id));
  const { ask, dialog } = useBulkConfirmation({
    noun: 'domain',
    texts: DOMAIN_BULK_TEXT,
    chosen: chosen.map((domain) => ({ id: domain.id, name: domain.domain })),
    run: (action, ids) => bulk({ action, ids }).unwrap(),
    setSelected,
    errorText: apiErrorMessage,
    pending: isLoading,
  });

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
        onAction={ask}
      />
      <ConfirmDialog {...dialog} />
    </>
  );
}
