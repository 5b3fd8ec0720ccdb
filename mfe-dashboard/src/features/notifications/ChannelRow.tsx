import { useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useTestNotificationChannelMutation } from '@cbh/api-client';
import { CHANNEL_TYPE_LABELS, SECRET_SET_TEXT, type ChannelView } from '@cbh/contracts';
import { Button, Muted, theme, toast, VisuallyHidden, When } from '@cbh/ui';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';
import { testOutcomeText } from './notification-text';
import { RowButtons } from '../shared/records-section';

const Stack = styled.div`
  display: grid;
  gap: 4px;
  justify-items: start;
`;

const Small = styled(Muted)`
  font-size: 13px;
  white-space: nowrap;
`;

/** The receiver's answer under the row's buttons; long errors wrap rather than widen the table. */
const Outcome = styled.p<{ $ok: boolean }>`
  margin: 6px 0 0;
  max-width: 320px;
  font-size: 13px;
  overflow-wrap: anywhere;
  color: ${({ $ok }) => ($ok ? theme.colors.success : theme.colors.destructive)};
`;

/** Where the channel sends: its addresses, or the host of its URL (the rest of it holds credentials and is never shown). */
function Destination({ channel }: { channel: ChannelView }) {
  if (channel.type === 'email') return <>{channel.recipients.join(', ')}</>;
  if (channel.type === 'log') return <>The API&apos;s log</>;
  if (!channel.urlSet) return <Muted>No URL</Muted>;
  return (
    <Stack>
      <span>{channel.urlHost}</span>
      <Small>URL {SECRET_SET_TEXT}</Small>
    </Stack>
  );
}

/** One channel: where it sends, its last delivery, and Send test, whose answer stays shown in the row. */
export function ChannelRow({ channel, onEdit, onDelete }: { channel: ChannelView; onEdit: () => void; onDelete: () => void }) {
  const [sendTest, { isLoading }] = useTestNotificationChannelMutation();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);

  const test = async () => {
    setOutcome(null);
    try {
      const result = await sendTest(channel.id).unwrap();
      const ok = result.status === 'delivered';
      const text = testOutcomeText(result);
      setOutcome({ ok, text });
      toast({
        title: ok ? 'Test Delivered' : 'Test Failed',
        description: `${channel.name}: ${text}`,
        variant: ok ? undefined : 'destructive',
      });
    } catch (error) {
      // the hub refused or could not be reached: not the receiver's answer
      const text = `Not sent — ${apiErrorMessage(error) ?? 'the hub could not send the test.'}`;
      setOutcome({ ok: false, text });
      toast({ title: 'Error', description: text, variant: 'destructive' });
    }
  };

  return (
    <tr data-testid={`channel-row-${channel.id}`}>
      <td>{channel.name}</td>
      <td>{CHANNEL_TYPE_LABELS[channel.type]}</td>
      <td>
        <Destination channel={channel} />
      </td>
      <td>{channel.secretSet ? SECRET_SET_TEXT : <Muted>None</Muted>}</td>
      <td>
        {channel.lastDelivery ? (
          <Stack>
            <DeliveryStatusBadge status={channel.lastDelivery.status} />
            <Small>
              <When at={channel.lastDelivery.at} />
            </Small>
          </Stack>
        ) : (
          <Muted>Never</Muted>
        )}
      </td>
      <td>
        <RowButtons name={channel.name} onEdit={onEdit} onDelete={onDelete}>
          <Button $variant="outline" onClick={test} disabled={isLoading}>
            {isLoading ? 'Sending...' : 'Send test'}
            <VisuallyHidden> {channel.name}</VisuallyHidden>
          </Button>
        </RowButtons>
        {outcome ? (
          <Outcome role="status" $ok={outcome.ok}>
            {outcome.text}
          </Outcome>
        ) : null}
      </td>
    </tr>
  );
}
