import { useId, useState } from 'react';
import { Combobox, describedBy, FieldBox, FieldDescription, FieldLabel, Hint, Muted, Select } from '@cbh/ui';
import type { PeopleDirectory } from './use-people';

/**
 * How the fields name a person they hold: by e-mail; someone the directory does not list (deactivated since, or past
 * its first 500) and no schedule names now is told apart from others by the start of their id, as nothing else is
 * known of them.
 */
const shown = (people: PeopleDirectory, id: string) => people.emailOf(id) ?? `unlisted account ${id.slice(0, 8)}`;

/** What a field says in place of a picker while people cannot be picked: whom it holds, and why it cannot change. */
function Unpickable({ label, ids, people }: { label: string; ids: readonly string[]; people: PeopleDirectory }) {
  return (
    <FieldBox role="group" aria-label={label}>
      <FieldLabel as="span">{label}</FieldLabel>
      {ids.length ? <Muted>{ids.map((id) => shown(people, id)).join(', ')}</Muted> : null}
      <Hint>{people.unavailable ?? 'Loading people…'}</Hint>
    </FieldBox>
  );
}

/**
 * Several people picked by e-mail from a list that searches, as chips, in the order picked (a rotation goes round
 * them in that order). An e-mail no account has is not taken, and the field says so; a deactivated person already
 * named is marked and may be removed.
 */
export function PeopleField({
  label,
  hint,
  problem,
  value,
  onChange,
  people,
}: {
  label: string;
  hint?: string;
  problem?: string;
  /** account ids */
  value: readonly string[];
  onChange: (ids: string[]) => void;
  people: PeopleDirectory;
}) {
  const id = useId();
  const [unmatched, setUnmatched] = useState<string[]>([]);
  if (!people.pickable) return <Unpickable label={label} ids={value} people={people} />;

  const pick = (emails: string[]) => {
    const held = new Map(value.map((each) => [shown(people, each), each]));
    const ids = emails.map((email) => held.get(email) ?? people.idOf(email));
    setUnmatched(emails.filter((_, index) => ids[index] === undefined));
    onChange(ids.filter((each): each is string => each !== undefined));
  };
  const described = describedBy(id, hint, problem);
  return (
    <FieldBox>
      <FieldLabel htmlFor={`${id}-input`}>{label}</FieldLabel>
      <Combobox
        id={`${id}-input`}
        label={label}
        value={value.map((each) => shown(people, each))}
        onChange={pick}
        options={people.pickable.map((person) => person.email)}
        unknown={(email) => `${email} is deactivated or unlisted: they are not told.`}
        placeholder="ana@example.com"
        describedBy={described['aria-describedby']}
        invalid={described['aria-invalid']}
      />
      {unmatched.length ? <Hint role="status">No account has the e-mail {unmatched.join(', ')}: pick someone from the list.</Hint> : null}
      <FieldDescription id={id} name={label} hint={hint} problem={problem} />
    </FieldBox>
  );
}

/** One person picked from a list (an override's), or none yet. */
export function PersonSelect({
  label,
  problem,
  value,
  onChange,
  people,
}: {
  label: string;
  problem?: string;
  value: string;
  onChange: (id: string) => void;
  people: PeopleDirectory;
}) {
  const id = useId();
  if (!people.pickable) return <Unpickable label={label} ids={value ? [value] : []} people={people} />;
  // someone deactivated since (so unlisted) stays shown as chosen rather than silently swapped for another
  const listedNow = people.pickable.some((person) => person.id === value);
  return (
    <FieldBox>
      <FieldLabel>
        {label}
        <Select value={value} onChange={(event) => onChange(event.target.value)} {...describedBy(id, undefined, problem)}>
          <option value="">Choose someone</option>
          {value && !listedNow ? <option value={value}>{shown(people, value)}</option> : null}
          {people.pickable.map((person) => (
            <option key={person.id} value={person.id}>
              {person.email}
            </option>
          ))}
        </Select>
      </FieldLabel>
      <FieldDescription id={id} name={label} problem={problem} />
    </FieldBox>
  );
}
