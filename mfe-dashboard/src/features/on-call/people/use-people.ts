import { useGetAuthUserQuery, useGetUsersQuery } from '@cbh/api-client';
import { canManageUsers, type OnCallPerson, type UserView } from '@cbh/contracts';

/** A person a policy step, a rotation or an override may name. */
export interface Person extends OnCallPerson {
  /** deactivated accounts stay named where they were, and are not offered */
  active: boolean;
}

/** Said where people would be picked, to someone who may not list them. */
export const PEOPLE_UNLISTED_TEXT =
  'People are listed to holders of user_management only, so they cannot be picked here: ask a user manager, or use channels and schedules.';

export interface PeopleDirectory {
  /** The active people to pick from; undefined while they are read, or when they cannot be (see `unavailable`). */
  pickable: readonly Person[] | undefined;
  /** Why no one can be picked, once that is known. */
  unavailable: string | undefined;
  /** A person's e-mail, when the directory or a schedule's shifts name them. */
  emailOf: (id: string) => string | undefined;
  /** The id of the account with this e-mail (any letter case). */
  idOf: (email: string) => string | undefined;
}

const nameOf = (user: UserView) => [user.firstName, user.lastName].filter(Boolean).join(' ') || null;

/**
 * The people on-call settings name. Only holders of user_management may list accounts (GET /api/users; its first
 * page of 100), and no other call lists people, so others see only the e-mails the schedules reveal of whoever is on
 * call now (`known`) and cannot pick anyone; the query is not even made for them, to spare a certain 403.
 */
export function usePeople(known: readonly OnCallPerson[] = []): PeopleDirectory {
  const { data: me } = useGetAuthUserQuery();
  const mayList = canManageUsers(me);
  const users = useGetUsersQuery(undefined, { skip: !mayList });
  const listed: Person[] = (users.data ?? []).map((user) => ({
    id: user.id,
    email: user.email,
    name: nameOf(user),
    active: user.isActive,
  }));
  const emails = new Map<string, string>([
    ...known.map((person) => [person.id, person.email] as const),
    ...listed.map((p) => [p.id, p.email] as const),
  ]);
  // undefined while the account itself is read
  const unavailable = me !== undefined && (!mayList || users.isError) ? PEOPLE_UNLISTED_TEXT : undefined;
  return {
    pickable: users.data && !unavailable ? listed.filter((person) => person.active) : undefined,
    unavailable,
    emailOf: (id) => emails.get(id),
    idOf: (email) => listed.find((person) => person.email.toLowerCase() === email.trim().toLowerCase())?.id,
  };
}
