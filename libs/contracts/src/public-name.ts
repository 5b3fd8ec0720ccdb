import { isRole, ROLE_LABELS } from './roles';

/** What may name an account to anyone: its name and role, never its e-mail address. */
export interface NamedPerson {
  firstName: string | null;
  lastName: string | null;
  role: string | null;
}

/**
 * How a person is named to someone who may not see their e-mail address (only audit_access holders may, in the
 * audit trail): their name, else their role ('an operator'), else 'someone' (an account since deleted). A name
 * that holds an '@' counts as none: a sign-in provider may fill the given name with the address. At the start
 * of a sentence ('An operator started a load test') the first letter is a capital.
 */
export function publicName(person: NamedPerson, { startsSentence = false } = {}): string {
  const text = nameOf(person) ?? roleOf(person.role);
  return startsSentence ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

function nameOf({ firstName, lastName }: NamedPerson): string | null {
  const parts = [firstName, lastName].map((part) => part?.trim() ?? '').filter((part) => part && !part.includes('@'));
  return parts.length > 0 ? parts.join(' ') : null;
}

function roleOf(role: string | null): string {
  if (!isRole(role)) return 'someone';
  const label = ROLE_LABELS[role].toLowerCase();
  return `${/^[aeiou]/.test(label) ? 'an' : 'a'} ${label}`;
}
