import { useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useEndOtherSessionsMutation, useEndSessionMutation, useGetSessionsQuery } from '@cbh/api-client';
import type { SessionView } from '@cbh/contracts';
import { Badge, Button, Card, DataTable, formatDateTime, Muted, plural, SectionTitle, theme, toast, VisuallyHidden } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';

const SESSION_COLUMNS = ['Browser', 'Address', 'Signed in', 'Last seen', 'Actions'];

const Header = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  margin-bottom: 12px;
  h2 {
    margin: 0;
  }
`;

const Device = styled.span`
  display: inline-flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
`;

function SessionRow({ session, onEnd }: { session: SessionView; onEnd: () => void }) {
  const device = `${session.browser} on ${session.os}`;
  return (
    <tr>
      <td>
        <Device>
          {device}
          {session.current ? <Badge $color={theme.colors.success}>This session</Badge> : null}
        </Device>
      </td>
      <td>{session.address ?? '—'}</td>
      <td>
        <time dateTime={session.signedInAt}>{formatDateTime(session.signedInAt)}</time>
      </td>
      <td>
        <time dateTime={session.lastSeenAt}>{formatDateTime(session.lastSeenAt)}</time>
      </td>
      <td>
        <Button type="button" $variant="outline" onClick={onEnd}>
          Sign out
          <VisuallyHidden> {session.current ? 'this session' : `${device} from ${session.address ?? 'an unknown address'}`}</VisuallyHidden>
        </Button>
      </td>
    </tr>
  );
}

/** Where the person is signed in: each session's browser, address and times, ended one by one or all but this one. */
export function SessionsSection() {
  const sessions = useGetSessionsQuery();
  const [endSession, ending] = useEndSessionMutation();
  const [endOthers, endingOthers] = useEndOtherSessionsMutation();
  const [confirming, setConfirming] = useState<SessionView | 'others' | null>(null);
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;

  const confirm = async () => {
    const target = confirming;
    try {
      if (target === 'others') {
        const { ended, revokedTokens } = await endOthers().unwrap();
        toast({
          title: 'Signed Out Elsewhere',
          description: `${plural(ended, 'other session')} ended, ${plural(revokedTokens, 'access token')} revoked.`,
        });
      } else if (target) {
        await endSession(target.id).unwrap();
        toast({ title: 'Session Ended', description: target.current ? 'You are signed out.' : 'That session is signed out.' });
      }
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to end the session.', variant: 'destructive' });
    }
    setConfirming(null);
  };

  return (
    <Card aria-labelledby="sessions-title">
      <Header>
        <SectionTitle id="sessions-title">Sessions</SectionTitle>
        <Button type="button" $variant="outline" disabled={others === 0} onClick={() => setConfirming('others')}>
          Sign out everywhere else
        </Button>
      </Header>
      {sessions.data ? (
        <DataTable label="Your sessions" columns={SESSION_COLUMNS} minWidth={680}>
          {sessions.data.map((session) => (
            <SessionRow key={session.id} session={session} onEnd={() => setConfirming(session)} />
          ))}
        </DataTable>
      ) : sessions.isError ? (
        <Muted role="alert">The sessions could not be loaded. {apiErrorMessage(sessions.error) ?? ''}</Muted>
      ) : (
        <Muted role="status">Loading sessions…</Muted>
      )}
      {confirming ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => (open ? undefined : setConfirming(null))}
          title={confirming === 'others' ? 'Sign out everywhere else' : 'Sign out session'}
          description={
            confirming === 'others'
              ? `End ${plural(others, 'other session')} and revoke your access tokens? Those browsers are signed out and scripts using your tokens are refused at once; this one stays signed in.`
              : confirming.current
                ? 'Sign out of this session? You will need to sign in again here.'
                : `Sign out ${confirming.browser} on ${confirming.os}? That browser is signed out at once.`
          }
          confirmLabel="Sign out"
          pendingLabel="Signing out..."
          pending={ending.isLoading || endingOthers.isLoading}
          onConfirm={confirm}
        />
      ) : null}
    </Card>
  );
}
