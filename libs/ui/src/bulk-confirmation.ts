import { useState } from 'react';
import { bulkItemNames, bulkSummary, type BulkResult } from '@cbh/contracts';
import { plural } from './format';
import { toast } from './toast-store';

export interface BulkText {
  label: string;
  effect: string;
  done: string;
}

/**
 * The confirmation of an action on many chosen items and its outcome, for a selection toolbar: `ask` opens the
 * confirmation (its props in `dialog`: how many, which and what happens), confirming runs the action, a toast sums the
 * outcomes up, and the items that failed stay chosen. `run` rejects when the request itself fails; `errorText` says why.
 */
export function useBulkConfirmation<A extends string>({
  noun,
  texts,
  chosen,
  run,
  setSelected,
  errorText,
  pending,
}: {
  /** What one item is called: 'breaker', 'domain'. */
  noun: string;
  texts: Record<A, BulkText>;
  chosen: readonly { id: number; name: string }[];
  run: (action: A, ids: number[]) => Promise<BulkResult>;
  setSelected: (ids: ReadonlySet<number>) => void;
  errorText: (error: unknown) => string | undefined;
  /** Whether the request is on its way (the mutation's isLoading). */
  pending: boolean;
}) {
  const [asking, setAsking] = useState<A | null>(null);
  const text = asking ? texts[asking] : null;
  const count = plural(chosen.length, noun);

  const confirm = async () => {
    if (!asking || !text) return;
    try {
      const result = await run(
        asking,
        chosen.map((item) => item.id),
      );
      const failed = result.results.filter((outcome) => !outcome.ok);
      toast({
        title: failed.length === 0 ? `${text.label}: done` : `${text.label}: not every ${noun} changed`,
        description: bulkSummary(result, text.done),
        variant: failed.length === 0 ? 'default' : 'destructive',
      });
      setSelected(new Set(failed.map((outcome) => outcome.id)));
    } catch (error) {
      toast({ title: 'Error', description: errorText(error) ?? 'The action could not be applied.', variant: 'destructive' });
    }
    setAsking(null);
  };

  return {
    ask: setAsking,
    dialog: {
      open: text !== null,
      onOpenChange: (open: boolean) => (open ? undefined : setAsking(null)),
      title: text ? `${text.label} ${count}?` : '',
      description: text ? `${bulkItemNames(chosen.map((item) => item.name))}. ${text.effect}` : '',
      confirmLabel: text ? `${text.label} ${count}` : '',
      pendingLabel: 'Applying...',
      pending,
      onConfirm: confirm,
    },
  };
}
