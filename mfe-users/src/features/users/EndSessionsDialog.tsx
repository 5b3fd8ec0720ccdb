import { apiErrorMessage, useEndUserSessionsMutation } from '@cbh/api-client';
import type { UserView } from '@cbh/contracts';
import { toast } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';
import { nameWithEmail } from './user-status';

/** Asks before signing an account out everywhere: every browser of theirs has to sign in again, and their tokens are revoked. */
export function EndSessionsDialog({ user, onClose }: { user: UserView; onClose: () => void }) {
  const [endSessions, { isLoading }] = useEndUserSessionsMutation();

  const confirm = async () => {
    try {
      const { ended, revokedTokens } = await endSessions(user.id).unwrap();
      const tokens = `${revokedTokens} access token${revokedTokens === 1 ? '' : 's'}`;
      toast({ title: 'Sessions Ended', description: `${ended} session${ended === 1 ? '' : 's'} ended, ${tokens} revoked.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to end sessions.', variant: 'destructive' });
    }
    onClose();
  };

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="End sessions"
      description={`Sign ${nameWithEmail(user)} out everywhere? Every browser they are signed in on has to sign in again, and their access tokens are revoked.`}
      confirmLabel="End sessions"
      pendingLabel="Ending..."
      pending={isLoading}
      onConfirm={confirm}
    />
  );
}
