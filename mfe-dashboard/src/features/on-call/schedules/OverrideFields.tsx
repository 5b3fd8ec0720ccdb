import { FormField, TextInput } from '@cbh/ui';
import { ItemFields, ItemHead, ListItem } from '../list-controls';
import { PersonSelect } from '../people/PeopleField';
import type { OverrideDraft, ScheduleItemProps } from './schedule-form';

type Part = 'user' | 'start' | 'end';

/** One override: someone on call in place of the rotations from one wall-clock time to another (a swap, cover). */
export function OverrideFields({
  index,
  count,
  override,
  timeZone,
  problem,
  onChange,
  onListChange,
  people,
}: ScheduleItemProps<OverrideDraft, Part> & { override: OverrideDraft }) {
  const path = `overrides.${index}` as const;
  const set = (part: Part, value: string) => onChange({ ...override, [part]: value }, part);
  return (
    <ListItem data-testid={`override-${index + 1}`}>
      {/* where overrides overlap, the later in the list wins, so their order matters too */}
      <ItemHead name={`Override ${index + 1}`} index={index} count={count} onChange={onListChange} />
      <PersonSelect
        label="Person"
        value={override.user}
        onChange={(user) => set('user', user)}
        problem={problem(`${path}.user`)}
        people={people}
      />
      <ItemFields $min={180}>
        <FormField label="From" hint={`In ${timeZone}.`} problem={problem(`${path}.start`)}>
          {(described) => (
            <TextInput type="datetime-local" value={override.start} onChange={(event) => set('start', event.target.value)} {...described} />
          )}
        </FormField>
        <FormField label="Until" hint={`In ${timeZone}.`} problem={problem(`${path}.end`)}>
          {(described) => (
            <TextInput type="datetime-local" value={override.end} onChange={(event) => set('end', event.target.value)} {...described} />
          )}
        </FormField>
      </ItemFields>
    </ListItem>
  );
}
