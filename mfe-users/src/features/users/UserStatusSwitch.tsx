import { failureText, useUpdateUserStatusMutation } from '@cbh/api-client';
import type { UserView } from '@cbh/contracts';
import { toast } from '@cbh/ui';
import { Switch } from '@cbh/ui/overlays';
import { DisabledReason } from './DisabledReason';

export const OWN_STATUS_REASON = 'You cannot change your own status';

/**
 * Enables or disables an account, unless `disabledReason` says why the signed-in user may not: nobody changes
 * their own, which could lock them out, nor an account the server would refuse them.
 */
export function UserStatusSwitch({ user, disabledReason }: { user: UserView; disabledReason: string | null }) {
  const [updateStatus, { isLoading }] = useUpdateUserStatusMutation();
  const label = `Active: ${user.email}`;

  const change = async (isActive: boolean) => {
    try {
      await updateStatus({ id: user.id, isActive }).unwrap();
      toast({ title: 'User Status Updated', description: 'User status changed successfully.' });
    } catch (error) {
      toast({ title: 'Error', description: failureText('Failed to update user.', error), variant: 'destructive' });
    }
  };

  if (disabledReason) {
    return (
      <DisabledReason reason={disabledReason}>
        <Switch checked={user.isActive} onCheckedChange={() => undefined} label={label} disabled />
      </DisabledReason>
    );
  }
  return <Switch checked={user.isActive} onCheckedChange={change} label={label} disabled={isLoading} />;
}
