import styled from 'styled-components';
import type { AlertGroupDeliveryView } from '@cbh/contracts';
import { Card, Muted, ResponsiveTable, SectionTitle, When, type TableColumn } from '@cbh/ui';
import { DeliveryStatusBadge } from '../../notifications/DeliveryStatusBadge';

/** An error can be a long line from the receiver: it wraps inside its column. */
const ErrorText = styled.span`
  display: block;
  max-width: 260px;
  font-size: 13px;
  overflow-wrap: anywhere;
`;

const dash = <Muted as="span">—</Muted>;

const COLUMNS: readonly TableColumn<AlertGroupDeliveryView>[] = [
  { header: 'To', cell: (delivery) => delivery.to },
  { header: 'Step', cell: (delivery) => delivery.step ?? dash },
  { header: 'Status', cell: (delivery) => <DeliveryStatusBadge status={delivery.status} /> },
  { header: 'Attempts', cell: (delivery) => delivery.attempts, priority: 3 },
  { header: 'Last error', cell: (delivery) => (delivery.lastError ? <ErrorText>{delivery.lastError}</ErrorText> : dash), priority: 2 },
  { header: 'Time', cell: (delivery) => <When at={delivery.deliveredAt ?? delivery.createdAt} />, nowrap: true },
];

/** Every message sent for the group: to whom, at which step, and how it went (a card per message on a phone). */
export function AlertGroupDeliveries({ deliveries }: { deliveries: readonly AlertGroupDeliveryView[] }) {
  return (
    <Card aria-labelledby="group-deliveries-title">
      <SectionTitle id="group-deliveries-title">Deliveries</SectionTitle>
      <ResponsiveTable
        label="Deliveries"
        rows={deliveries}
        rowKey={(delivery) => delivery.id}
        rowTestId={(delivery) => `group-delivery-${delivery.id}`}
        columns={COLUMNS}
        empty="No one has been messaged for it yet."
      />
    </Card>
  );
}
