import { apiErrorMessage, useCreateServiceAccountMutation } from '@cbh/api-client';
import { SERVICE_ACCOUNT_NAME_MAX } from '@cbh/contracts';
import { AccountWithRoleDialog } from '../users/AccountWithRoleDialog';

/** Creates a service account with a name and a role; it gets that role's permissions. */
export function NewServiceAccountDialog() {
  const [create, { isLoading }] = useCreateServiceAccountMutation();
  return (
    <AccountWithRoleDialog
      title="New Service Account"
      description="An account for a machine (a CI job, a service reporting breakers): it never signs in and acts only through its access tokens."
      formLabel="New service account"
      field={{ label: 'Name', hint: "Lower-case letters, digits and '-'.", placeholder: 'ci-bot', maxLength: SERVICE_ACCOUNT_NAME_MAX }}
      submitLabel="Create"
      pendingLabel="Creating..."
      pending={isLoading}
      add={async (name, role) => {
        await create({ name, role }).unwrap();
        return { title: 'Service Account Created', description: `${name} can now be given access tokens.` };
      }}
      failure={(error) => apiErrorMessage(error) ?? 'Failed to create the service account.'}
    />
  );
}
