import { useCreateServiceAccountTokenMutation } from '@cbh/api-client';
import { heldPermissions, type ServiceAccountView } from '@cbh/contracts';
import { Dialog } from '@cbh/ui/overlays';
import { NewTokenForm } from '../tokens/NewTokenForm';

const DEFAULT_DAYS = 90;

/** Makes an access token for a service account, with at most the account's permissions. */
export function NewTokenDialog({ account, onClose }: { account: ServiceAccountView; onClose: () => void }) {
  const [createToken] = useCreateServiceAccountTokenMutation();
  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="New Token"
      description={`An access token for ${account.name}, with at most its permissions.`}
    >
      <NewTokenForm
        allowed={heldPermissions(account)}
        defaultDays={DEFAULT_DAYS}
        placeholder="deploy"
        create={(request) => createToken({ id: account.id, ...request }).unwrap()}
        onDone={onClose}
      />
    </Dialog>
  );
}
