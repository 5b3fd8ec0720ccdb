import { FormField, Select, TextInput } from '@cbh/ui';
import { ON_CALL_LIMITS } from '@cbh/contracts';
import { ItemFields, ItemHead, ListItem } from '../list-controls';
import { PeopleField } from '../people/PeopleField';
import type { RotationDraft, ScheduleItemProps, ShiftKind } from './schedule-form';

const KINDS: { value: ShiftKind; label: string }[] = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'hours', label: 'A number of hours' },
];

type Part = 'users' | 'start' | 'lengthHours' | 'handoffTime';

/**
 * One rotation: its people in turn, when the first shift starts, and how long each lasts. Rotations are read in
 * order, the first with someone on call winning, so their order matters and they move up and down.
 */
export function RotationFields({
  index,
  count,
  rotation,
  timeZone,
  problem,
  onChange,
  onListChange,
  people,
}: ScheduleItemProps<RotationDraft, Part> & { rotation: RotationDraft }) {
  const path = `rotations.${index}` as const;
  const set = <Key extends keyof RotationDraft>(key: Key, value: RotationDraft[Key], part: Part) =>
    onChange({ ...rotation, [key]: value }, part);
  return (
    <ListItem data-testid={`rotation-${index + 1}`}>
      <ItemHead name={`Rotation ${index + 1}`} index={index} count={count} onChange={onListChange} />
      <PeopleField
        label="People, in turn"
        hint={`Each takes a shift in this order, then the first again; at most ${ON_CALL_LIMITS.usersPerRotation}.`}
        value={rotation.users}
        onChange={(users) => set('users', users, 'users')}
        problem={problem(`${path}.users`)}
        people={people}
      />
      <ItemFields $min={180}>
        <FormField label="First shift starts" hint={`In ${timeZone}.`} problem={problem(`${path}.start`)}>
          {(described) => (
            <TextInput
              type="datetime-local"
              value={rotation.start}
              onChange={(event) => set('start', event.target.value, 'start')}
              {...described}
            />
          )}
        </FormField>
        <FormField label="Shift length">
          {(described) => (
            <Select value={rotation.kind} onChange={(event) => set('kind', event.target.value as ShiftKind, 'lengthHours')} {...described}>
              {KINDS.map((kind) => (
                <option key={kind.value} value={kind.value}>
                  {kind.label}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        {rotation.kind === 'hours' ? (
          <FormField label="Hours" hint={`1–${ON_CALL_LIMITS.shiftHours} hours of real time.`} problem={problem(`${path}.lengthHours`)}>
            {(described) => (
              <TextInput
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                value={rotation.hours}
                onChange={(event) => set('hours', event.target.value, 'lengthHours')}
                {...described}
              />
            )}
          </FormField>
        ) : (
          <FormField label="Hand-over time" hint="Empty: the start's time of day." problem={problem(`${path}.handoffTime`)}>
            {(described) => (
              <TextInput
                type="time"
                value={rotation.handoffTime}
                onChange={(event) => set('handoffTime', event.target.value, 'handoffTime')}
                {...described}
              />
            )}
          </FormField>
        )}
      </ItemFields>
    </ListItem>
  );
}
