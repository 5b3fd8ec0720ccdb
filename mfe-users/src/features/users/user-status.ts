import type { UserView } from '@cbh/contracts';

export type UserStatus = 'Active' | 'Pending' | 'Inactive';

/**
 * An account is Active once its invitation was accepted (activatedAt set) and it is enabled; an enabled
 * account that never accepted its invitation is still Pending; a disabled account is Inactive either way.
 */
export function userStatus(user: Pick<UserView, 'isActive' | 'activatedAt'>): UserStatus {
  if (!user.isActive) return 'Inactive';
  return user.activatedAt ? 'Active' : 'Pending';
}

/** The name to show: first and last name when the account has one, its e-mail otherwise. */
export function displayName(user: Pick<UserView, 'firstName' | 'lastName' | 'email'>): string {
  const name = [user.firstName, user.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return name || user.email;
}

/** Names a user unambiguously in a sentence: the name with the e-mail, or the e-mail alone when there is no name. */
export function nameWithEmail(user: Pick<UserView, 'firstName' | 'lastName' | 'email'>): string {
  const name = displayName(user);
  return name === user.email ? name : `${name} (${user.email})`;
}

export function initialOf(user: Pick<UserView, 'firstName' | 'lastName' | 'email'>): string {
  return displayName(user).charAt(0).toUpperCase();
}
