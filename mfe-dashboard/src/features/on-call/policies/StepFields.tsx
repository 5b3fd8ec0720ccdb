import type { ChannelView, ScheduleView } from '@cbh/contracts';
import { CheckboxGroup, FormField, Hint, Problem, Select, TextInput } from '@cbh/ui';
import { ItemFields, ItemHead, ListItem, type ListItemProps } from '../list-controls';
import { PeopleField } from '../people/PeopleField';
import type { PeopleDirectory } from '../people/use-people';
import type { PolicyField, StepDraft } from './policy-form';

/** What a step's fields may pick from. */
export interface StepChoices {
  channels: readonly ChannelView[];
  schedules: readonly ScheduleView[];
  people: PeopleDirectory;
}

/**
 * One step of a policy: whom it tells (channels, people, whoever a schedule has on call) and how long it waits for an
 * acknowledgement before the next step. `onChange` names the part changed, so its problem shows from then on.
 */
export function StepFields({
  index,
  count,
  step,
  problem,
  onChange,
  onListChange,
  choices,
}: ListItemProps<StepDraft, 'notify' | 'waitMinutes', PolicyField> & { step: StepDraft; choices: StepChoices }) {
  const path = `steps.${index}` as const;
  const notify = (patch: Partial<StepDraft>) => onChange({ ...step, ...patch }, 'notify');
  const whom = problem(`${path}.notify`);
  return (
    <ListItem data-testid={`step-${index + 1}`}>
      <ItemHead name={`Step ${index + 1}`} index={index} count={count} onChange={onListChange} removable={count > 1} />
      <CheckboxGroup
        legend="Channels"
        choices={choices.channels.map((channel) => ({ value: channel.id, label: channel.name }))}
        value={step.channels}
        onChange={(channels) => notify({ channels })}
        problem={problem(`${path}.notify.channels`)}
        hint={choices.channels.length === 0 ? 'No channels yet: add them on the notifications page.' : undefined}
      />
      <PeopleField
        label="People"
        hint="Each is told by e-mail and their own contact methods."
        value={step.users}
        onChange={(users) => notify({ users })}
        problem={problem(`${path}.notify.users`)}
        people={choices.people}
      />
      <ItemFields $min={200}>
        <FormField label="Schedule" hint="Whoever it has on call when the step fires.">
          {(described) => (
            <Select value={step.schedule} onChange={(event) => notify({ schedule: event.target.value })} {...described}>
              <option value="">None</option>
              {choices.schedules.map((schedule) => (
                <option key={schedule.id} value={schedule.id}>
                  {schedule.name}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField label="Wait (minutes)" hint="Before the next step, 0–1440." problem={problem(`${path}.waitMinutes`)}>
          {(described) => (
            <TextInput
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={step.waitMinutes}
              onChange={(event) => onChange({ ...step, waitMinutes: event.target.value }, 'waitMinutes')}
              {...described}
            />
          )}
        </FormField>
      </ItemFields>
      {whom ? (
        <Problem>
          Step {index + 1}: {whom}
        </Problem>
      ) : (
        <Hint>Tell channels, people, a schedule, or any mix of them.</Hint>
      )}
    </ListItem>
  );
}
