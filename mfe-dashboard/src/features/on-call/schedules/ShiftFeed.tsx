import { useState } from 'react';
import styled from 'styled-components';
import { failureText, useMakeShiftFeedMutation, useRevokeShiftFeedMutation } from '@cbh/api-client';
import { Button, CopyField, Muted, toast, WrapRow } from '@cbh/ui';
import { Section } from '../../shared/section-parts';

const Stack = styled.div`
  display: grid;
  gap: 12px;
`;

/**
 * The reader's own shifts, in every schedule, as a calendar their calendar application subscribes to. The address is
 * its only key: it is shown once, a new one revokes the old, and Revoke ends it. Sessions only (the API refuses a
 * token), which a browser always has.
 */
export function ShiftFeed() {
  const [make, making] = useMakeShiftFeedMutation();
  const [revoke, revoking] = useRevokeShiftFeedMutation();
  const [url, setUrl] = useState<string | null>(null);

  const subscribe = async () => {
    try {
      setUrl((await make().unwrap()).url);
    } catch (error) {
      toast({ title: 'Error', description: failureText('The calendar address could not be made.', error), variant: 'destructive' });
    }
  };
  const stop = async () => {
    try {
      await revoke().unwrap();
      setUrl(null);
      toast({ title: 'Calendar Address Revoked', description: 'Calendars subscribed to it no longer get your shifts.' });
    } catch (error) {
      toast({ title: 'Error', description: failureText('The calendar address could not be revoked.', error), variant: 'destructive' });
    }
  };

  return (
    <Section
      id="shift-feed-title"
      title="Your shifts in your calendar"
      description="A private address of your shifts in every schedule, a week back and eight weeks ahead, for your calendar application to subscribe to."
    >
      <Stack>
        {url ? (
          <>
            <CopyField label="Calendar address" value={url} />
            <Muted>
              Add it in your calendar application as a calendar from a URL (a subscription). Anyone with it sees your shifts: it is shown
              only now, and a new address revokes this one.
            </Muted>
          </>
        ) : null}
        <WrapRow>
          <Button onClick={subscribe} disabled={making.isLoading}>
            {url ? 'Make a new address' : 'Subscribe to my shifts'}
          </Button>
          <Button $variant="outline" onClick={stop} disabled={revoking.isLoading}>
            Revoke my calendar address
          </Button>
        </WrapRow>
      </Stack>
    </Section>
  );
}
