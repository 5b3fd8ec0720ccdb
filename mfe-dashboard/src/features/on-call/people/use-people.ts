import { failureText, useGetAuthUserQuery, useGetOnCallPeopleQuery } from '@cbh/api-client';
import { hasPermission, type OnCallPerson } from '@cbh/contracts';

/** A person a policy step, a rotation or an override may name: an active account from GET /api/on-call/people. */
export type Person = OnCallPerson;

/** Said where people would be picked, to someone who may not list them (the tabs are shown only to those who may). */
export const PEOPLE_FORBIDDEN_TEXT = 'You need the circuit_breaker_operate or circuit_breaker_admin permission to pick people.';

export interface PeopleDirectory {
  /** The active people to pick from; undefined while they are read, or when they cannot be (see `unavailable`). */
  pickable: readonly Person[] | undefined;
  /** Why no one can be picked, once that is known. */
  unavailable: string | undefined;
  /** A person's e-mail, when the directory or a schedule's shifts name them. */
  emailOf: (id: string) => string | undefined;
  /** The id of the listed account with this e-mail (any letter case). */
  idOf: (email: string) => string | undefined;
}

/**
 * The people on-call settings name: the active persons GET /api/on-call/people lists (by e-mail, up to
 * ON_CALL_PEOPLE_LIMIT) to holders of circuit_breaker_admin or circuit_breaker_operate. Deactivated accounts are not
 * listed, so one a schedule or step still names is known only by what the schedules reveal of whoever is on call now
 * (`known`), else the fields call it an unlisted account; the query is not made for anyone else, to spare a 403.
 */
export function usePeople(known: readonly OnCallPerson[] = []): PeopleDirectory {
  const { data: me } = useGetAuthUserQuery();
  const mayList = hasPermission(me, 'circuit_breaker_admin') || hasPermission(me, 'circuit_breaker_operate');
  const people = useGetOnCallPeopleQuery(undefined, { skip: !mayList });
  const listed = people.data ?? [];
  const emails = new Map<string, string>([
    ...known.map((person) => [person.id, person.email] as const),
    ...listed.map((person) => [person.id, person.email] as const),
  ]);
  // undefined while the account itself is read
  const unavailable =
    me === undefined
      ? undefined
      : !mayList
        ? PEOPLE_FORBIDDEN_TEXT
        : people.isError
          ? failureText('People could not be read, so no one can be picked now.', people.error)
          : undefined;
  return {
    pickable: people.data && !unavailable ? listed : undefined,
    unavailable,
    emailOf: (id) => emails.get(id),
    idOf: (email) => listed.find((person) => person.email.toLowerCase() === email.trim().toLowerCase())?.id,
  };
}
