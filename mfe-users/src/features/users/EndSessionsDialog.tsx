import { apiErrorMessage, useEndUserSessionsMutation } from '@cbh/api-client';
import type { UserView } from '@cbh/contracts';
import { ConfirmActionDialog } from '../shared/ConfirmActionDialog';
import { nameWithEmail } from './user-status';

/** Asks before signing an account out everywhere: every browser of theirs has to sign in again, and their tokens are revoked. */
export function EndSessionsDialog({ user, onClose }: { user: UserView; onClose: () => void }) {
  const [endSessions, { isLoading }] = useEndUserSessionsMutation();
  return (
    <ConfirmActionDialog
      title="End sessions"
      description={`Sign ${nameWithEmail(user)} out everywhere? Every browser they are signed in on has to sign in again, and their access tokens are revoked.`}
      confirmLabel="End sessions"
      pendingLabel="Ending..."
      pending={isLoading}
      run={async () => {
        const { ended, revokedTokens } = await endSessions(user.id).unwrap();
        const tokens = `${revokedTokens} access token${revokedTokens === 1 ? '' : 's'}`;
        return { title: 'Sessions Ended', description: `${ended} session${ended === 1 ? '' : 's'} ended, ${tokens} revoked.` };
      }}
      failure={(error) => apiErrorMessage(error) ?? 'Failed to end sessions.'}
      onClose={onClose}
    />
  );
}
