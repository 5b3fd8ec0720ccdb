import { failureText, useInviteUserMutation } from '@cbh/api-client';
import { AccountWithRoleDialog } from './AccountWithRoleDialog';

export function InviteUserDialog() {
  const [inviteUser, { isLoading }] = useInviteUserMutation();
  return (
    <AccountWithRoleDialog
      title="Invite User"
      description="Send an invitation e-mail; the account becomes active once the invitation is accepted."
      formLabel="Invite user"
      field={{ label: 'Email Address', type: 'email', placeholder: 'name@example.com', maxLength: 254 }}
      submitLabel="Send Invitation"
      pendingLabel="Sending..."
      pending={isLoading}
      add={async (email, role) => {
        await inviteUser({ email, role }).unwrap();
        return { title: 'User Invited', description: 'Invitation sent successfully.' };
      }}
      failure={(error) => failureText('Failed to invite user.', error)}
    />
  );
}
