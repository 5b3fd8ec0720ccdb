import { apiErrorMessage, usePruneRetentionMutation } from '@cbh/api-client';
import { PRUNED_KIND_LABELS, PRUNED_KINDS, type PrunedKind, type RetentionView } from '@cbh/contracts';
import { Button, Muted, plural, ResponsiveTable, SpreadRow, toast, When } from '@cbh/ui';

/** When the last prune ran and what it removed, by kind, with a button that prunes now. */
export function LastPrune({ retention }: { retention: RetentionView }) {
  const [prune, { isLoading }] = usePruneRetentionMutation();

  const pruneNow = async () => {
    try {
      const result = await prune().unwrap();
      const total = PRUNED_KINDS.reduce((sum, kind) => sum + result.removed[kind], 0);
      toast({ title: 'Prune Complete', description: `Removed ${plural(total, 'row')} older than the settings keep.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to prune.', variant: 'destructive' });
    }
  };

  return (
    <>
      <SpreadRow $gap={8} $below={12}>
        <Muted>
          {retention.lastPrunedAt ? (
            <>
              Last pruned <When at={retention.lastPrunedAt} />
            </>
          ) : (
            'Not pruned yet: the first daily prune runs within a day.'
          )}
        </Muted>
        <Button type="button" $variant="outline" disabled={isLoading} onClick={() => void pruneNow()}>
          {isLoading ? 'Pruning...' : 'Prune now'}
        </Button>
      </SpreadRow>
      {retention.lastPruned && (
        <ResponsiveTable
          label="Removed by the last prune"
          rows={PRUNED_KINDS}
          rowKey={(kind: PrunedKind) => kind}
          columns={[
            { header: 'History', cell: (kind: PrunedKind) => PRUNED_KIND_LABELS[kind] },
            // a prune recorded before a kind existed removed none of it
            { header: 'Rows removed', cell: (kind: PrunedKind) => retention.lastPruned![kind] ?? 0 },
          ]}
        />
      )}
    </>
  );
}
