import { useState } from 'react';
import { apiErrorMessage, failureText, useDeleteStatusSubscriberMutation, useGetStatusSubscribersQuery } from '@cbh/api-client';
import type { StatusPageView, SubscriberView } from '@cbh/contracts';
import { Badge, Card, Muted, ResponsiveTable, SectionTitle, theme, toast, When, type TableColumn } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';

/** The people who asked to hear of the page's incidents by e-mail; a pending one has not confirmed the address yet. */
export function SubscribersTab({ page }: { page: StatusPageView }) {
  const subscribers = useGetStatusSubscribersQuery(page.id);
  const [remove, { isLoading }] = useDeleteStatusSubscriberMutation();
  const [removing, setRemoving] = useState<SubscriberView | null>(null);
  const names = new Map(page.components.map((component) => [component.id, component.name]));

  const columns: TableColumn<SubscriberView>[] = [
    { header: 'E-mail', cell: (subscriber) => subscriber.email },
    {
      header: 'Status',
      cell: (subscriber) =>
        subscriber.confirmed ? <Badge $color={theme.colors.success}>Confirmed</Badge> : <Badge $color={theme.colors.grey}>Pending</Badge>,
      nowrap: true,
    },
    {
      header: 'Components',
      cell: (subscriber) =>
        subscriber.components.length === 0 ? 'All' : subscriber.components.map((id) => names.get(id) ?? `#${id}`).join(', '),
      priority: 2,
    },
    { header: 'Since', cell: (subscriber) => <When at={subscriber.createdAt} />, nowrap: true, priority: 3 },
  ];

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await remove({ pageId: page.id, subscriberId: removing.id }).unwrap();
      toast({ title: 'Subscriber Removed', description: `${removing.email} hears no more of ${page.title}.` });
    } catch (error) {
      toast({ title: 'Error', description: failureText('The subscriber could not be removed.', error), variant: 'destructive' });
    }
    setRemoving(null);
  };

  return (
    <Card aria-labelledby="subscribers-title">
      <SectionTitle id="subscribers-title">Subscribers</SectionTitle>
      {subscribers.isError ? (
        <Muted role="alert">The subscribers could not be loaded. {apiErrorMessage(subscribers.error) ?? ''}</Muted>
      ) : !subscribers.data ? (
        <Muted role="status">Loading subscribers…</Muted>
      ) : (
        <ResponsiveTable
          label="Subscribers"
          rows={subscribers.data}
          rowKey={(subscriber) => String(subscriber.id)}
          rowName={(subscriber) => subscriber.email}
          columns={columns}
          empty={
            page.public
              ? 'No subscribers yet: people subscribe on the public page to hear of incidents by e-mail.'
              : 'No subscribers yet: people can subscribe once the page is public.'
          }
          actions={(subscriber) => [{ label: 'Remove', onSelect: () => setRemoving(subscriber), danger: true }]}
        />
      )}
      {removing ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => (open ? undefined : setRemoving(null))}
          title="Remove subscriber"
          description={`Remove ${removing.email}? They receive no more e-mail about ${page.title}; they may subscribe again.`}
          confirmLabel="Remove"
          pendingLabel="Removing..."
          pending={isLoading}
          onConfirm={confirmRemove}
        />
      ) : null}
    </Card>
  );
}
