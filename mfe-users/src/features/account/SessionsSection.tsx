import { useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useEndOtherSessionsMutation, useEndSessionMutation, useGetSessionsQuery } from '@cbh/api-client';
import type { SessionView } from '@cbh/contracts';
import {
  Badge,
  Button,
  Card,
  Muted,
  plural,
  ResponsiveTable,
  SectionTitle,
  SpreadRow,
  theme,
  VisuallyHidden,
  When,
  type TableColumn,
} from '@cbh/ui';
import { ConfirmActionDialog } from '../shared/ConfirmActionDialog';

const Device = styled.span`
  display: inline-flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
`;

const deviceOf = (session: SessionView) => `${session.browser} on ${session.os}`;

const SESSION_COLUMNS: readonly TableColumn<SessionView>[] = [
  {
    header: 'Browser',
    cell: (session) => (
      <Device>
        {deviceOf(session)}
        {session.current ? <Badge $color={theme.colors.success}>This session</Badge> : null}
      </Device>
    ),
  },
  { header: 'Address', cell: (session) => session.address ?? '—', priority: 2 },
  { header: 'Signed in', cell: (session) => <When at={session.signedInAt} />, priority: 3, nowrap: true },
  { header: 'Last seen', cell: (session) => <When at={session.lastSeenAt} />, priority: 2, nowrap: true },
];

/** Where the person is signed in: each session's browser, address and times, ended one by one or all but this one. */
export function SessionsSection() {
  const sessions = useGetSessionsQuery();
  const [endSession, ending] = useEndSessionMutation();
  const [endOthers, endingOthers] = useEndOtherSessionsMutation();
  const [confirming, setConfirming] = useState<SessionView | 'others' | null>(null);
  const others = sessions.data?.filter((session) => !session.current).length ?? 0;

  const end = async (target: SessionView | 'others') => {
    if (target === 'others') {
      const { ended, revokedTokens } = await endOthers().unwrap();
      return {
        title: 'Signed Out Elsewhere',
        description: `${plural(ended, 'other session')} ended, ${plural(revokedTokens, 'access token')} revoked.`,
      };
    }
    await endSession(target.id).unwrap();
    return { title: 'Session Ended', description: target.current ? 'You are signed out.' : 'That session is signed out.' };
  };

  return (
    <Card aria-labelledby="sessions-title">
      <SpreadRow $below={12}>
        <SectionTitle id="sessions-title">Sessions</SectionTitle>
        <Button type="button" $variant="outline" disabled={others === 0} onClick={() => setConfirming('others')}>
          Sign out everywhere else
        </Button>
      </SpreadRow>
      {sessions.data ? (
        <ResponsiveTable
          region
          label="Your sessions"
          rows={sessions.data}
          rowKey={(session) => session.id}
          columns={SESSION_COLUMNS}
          inline={(session) => (
            <Button type="button" $variant="outline" onClick={() => setConfirming(session)}>
              Sign out
              <VisuallyHidden>
                {' '}
                {session.current ? 'this session' : `${deviceOf(session)} from ${session.address ?? 'an unknown address'}`}
              </VisuallyHidden>
            </Button>
          )}
        />
      ) : sessions.isError ? (
        <Muted role="alert">The sessions could not be loaded. {apiErrorMessage(sessions.error) ?? ''}</Muted>
      ) : (
        <Muted role="status">Loading sessions…</Muted>
      )}
      {confirming ? (
        <ConfirmActionDialog
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
          run={() => end(confirming)}
          failure={(error) => apiErrorMessage(error) ?? 'Failed to end the session.'}
          onClose={() => setConfirming(null)}
        />
      ) : null}
    </Card>
  );
}
