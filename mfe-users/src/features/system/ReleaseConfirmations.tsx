import { usePromoteReleaseMutation, useRollbackReleaseMutation } from '@cbh/api-client';
import type { ReleaseView } from '@cbh/contracts';
import { ConfirmActionDialog } from '../shared/ConfirmActionDialog';
import { NEXT_NAVIGATION, refusalText, versionText } from './release-text';

/** Asks before a version goes live for everyone (a canary's version included, which ends the canary). */
export function PromoteDialog({ release, versionId, onClose }: { release: ReleaseView; versionId: number; onClose: () => void }) {
  const [promote, { isLoading }] = usePromoteReleaseMutation();
  const { remote } = release;
  const endsCanary =
    release.canary && release.canary.versionId !== versionId ? ` The canary of version ${release.canary.versionId} ends.` : '';
  return (
    <ConfirmActionDialog
      title={`Promote version ${versionId}`}
      description={`Make version ${versionId} of ${remote} live for everyone? ${NEXT_NAVIGATION}${endsCanary}`}
      confirmLabel="Promote"
      pendingLabel="Promoting..."
      pending={isLoading}
      run={async () => {
        await promote({ remote, versionId }).unwrap();
        return { title: 'Version Promoted', description: `Version ${versionId} of ${remote} is live for everyone. ${NEXT_NAVIGATION}` };
      }}
      failure={(error) => refusalText(`Version ${versionId} of ${remote} was not made live`, error)}
      onClose={onClose}
    />
  );
}

/** Asks before everyone goes back to what was live before; a canary running ends with it. */
export function RollbackDialog({ release, onClose }: { release: ReleaseView; onClose: () => void }) {
  const [rollback, { isLoading }] = useRollbackReleaseMutation();
  const { remote } = release;
  const back = versionText(release.previousVersionId);
  const endsCanary = release.canary ? ` The canary of version ${release.canary.versionId} ends too.` : '';
  return (
    <ConfirmActionDialog
      title={`Roll back ${remote}`}
      description={`Put ${back} of ${remote} back live for everyone, in place of ${versionText(release.liveVersionId)}? ${NEXT_NAVIGATION}${endsCanary}`}
      confirmLabel="Roll back"
      pendingLabel="Rolling back..."
      pending={isLoading}
      run={async () => {
        const after = await rollback(remote).unwrap();
        return {
          title: 'Rolled Back',
          description: `${remote} is back on ${versionText(after.liveVersionId)} for everyone. ${NEXT_NAVIGATION}`,
        };
      }}
      failure={(error) => refusalText(`${remote} was not rolled back`, error)}
      onClose={onClose}
    />
  );
}
