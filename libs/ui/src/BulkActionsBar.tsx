import type { ReactNode } from 'react';
import type { BulkResult } from '@cbh/contracts';
import { useBulkConfirmation, type BulkText } from './bulk-confirmation';
import { SelectionBar } from './SelectionBar';

/** What a list gives its bulk toolbar: the rows it shows, which are chosen, and the actions the person may take. */
export interface BulkSelection<A extends string, Item extends { id: number }> {
  /** The rows the list shows now, its filters applied, in its order. */
  shown: readonly Item[];
  selected: ReadonlySet<number>;
  actions: readonly A[];
  selectAll: (ids: readonly number[], all: boolean) => void;
  setSelected: (ids: ReadonlySet<number>) => void;
}

/**
 * A list's toolbar for the chosen rows (SelectionBar) with its confirmation (useBulkConfirmation): only the chosen
 * rows shown are acted on, so one chosen and then filtered out is not changed unseen. The confirmation is drawn by
 * `children` from its props, so a remote can fetch ConfirmDialog (of the overlays entry) when it is first opened.
 */
export function BulkActionsBar<A extends string, Item extends { id: number }>({
  noun,
  texts,
  shown,
  selected,
  actions,
  selectAll,
  setSelected,
  nameOf,
  run,
  errorText,
  pending,
  children,
}: BulkSelection<A, Item> & {
  /** What one row is called: 'breaker', 'domain'. */
  noun: string;
  texts: Record<A, BulkText>;
  /** A row's name in the confirmation. */
  nameOf: (item: Item) => string;
  run: (action: A, ids: number[]) => Promise<BulkResult>;
  errorText: (error: unknown) => string | undefined;
  /** Whether the request is on its way (the mutation's isLoading). */
  pending: boolean;
  children: (dialog: ReturnType<typeof useBulkConfirmation<A>>['dialog']) => ReactNode;
}) {
  const chosen = shown.filter((item) => selected.has(item.id));
  const { ask, dialog } = useBulkConfirmation({
    noun,
    texts,
    chosen: chosen.map((item) => ({ id: item.id, name: nameOf(item) })),
    run,
    setSelected,
    errorText,
    pending,
  });

  return (
    <>
      <SelectionBar
        label={`Actions on the chosen ${noun}s`}
        shown={shown.length}
        selected={chosen.length}
        onSelectAll={(all) =>
          selectAll(
            shown.map((item) => item.id),
            all,
          )
        }
        actions={actions.map((action) => ({ action, label: texts[action].label }))}
        onAction={ask}
      />
      {children(dialog)}
    </>
  );
}
