import { useCreateScheduleMutation, useUpdateScheduleMutation } from '@cbh/api-client';
import { ON_CALL_LIMITS, type ScheduleView } from '@cbh/contracts';
import { Button, FieldGroup, Hint, Problem } from '@cbh/ui';
import { FormDialog } from '../../shared/form-dialog';
import { TextField } from '../../shared/form-parts';
import { useRecordForm } from '../../shared/use-record-form';
import { changedList } from '../list-controls';
import type { PeopleDirectory } from '../people/use-people';
import { OverrideFields } from './OverrideFields';
import { RotationFields } from './RotationFields';
import { emptyOverride, emptyRotation, SCHEDULE_FORM, type OverrideDraft, type RotationDraft } from './schedule-form';
import { TimeZoneField } from './TimeZoneField';

/**
 * Adds a schedule, or edits one (`schedule`): its time zone, its rotations in order and its overrides. An edit sends
 * a list whole when any of it changed (PATCH replaces it). A refusal keeps the dialog open, with the reason under the
 * field it names.
 */
export function ScheduleDialog({ schedule, people, onClose }: { schedule?: ScheduleView; people: PeopleDirectory; onClose: () => void }) {
  const { form, frame } = useRecordForm(schedule, SCHEDULE_FORM, useCreateScheduleMutation, useUpdateScheduleMutation);
  const { rotations, overrides, timeZone } = form.draft;
  const setRotations = (next: RotationDraft[], parts: string[] = []) => form.change('rotations', next, parts);
  const setOverrides = (next: OverrideDraft[], parts: string[] = []) => form.change('overrides', next, parts);
  const zone = timeZone || 'the schedule’s time zone';

  return (
    <FormDialog
      title={schedule ? `Edit ${schedule.name}` : 'Add schedule'}
      description="Who is on call when: rotations take turns, overrides put someone in their place for a while."
      formLabel={schedule ? 'Edit schedule' : 'New schedule'}
      wide
      {...frame}
      saved={(saved) => ({ title: schedule ? 'Schedule Updated' : 'Schedule Added', description: `${saved.name} is saved.` })}
      failure="Failed to save the schedule."
      onClose={onClose}
    >
      <TextField label="Name" {...form.field('name')} placeholder="Payments primary" />
      <TimeZoneField value={timeZone} onChange={(value) => form.change('timeZone', value)} problem={form.problem('timeZone')} />

      <FieldGroup>
        <legend>Rotations</legend>
        <Hint>The first rotation with someone on call wins; none: nobody is on call but by override.</Hint>
        {rotations.map((rotation, index) => (
          <RotationFields
            // rotations have no ids: a rotation's place is its identity while the dialog is open
            key={index}
            index={index}
            count={rotations.length}
            rotation={rotation}
            timeZone={zone}
            problem={form.problem}
            onChange={(changed, part) =>
              setRotations(
                rotations.map((each, at) => (at === index ? changed : each)),
                [`rotations.${index}.${part}`],
              )
            }
            onListChange={(change) => setRotations(changedList(rotations, index, change))}
            people={people}
          />
        ))}
        {form.problem('rotations') ? <Problem>Rotations: {form.problem('rotations')}</Problem> : null}
        <div>
          <Button
            type="button"
            $variant="outline"
            disabled={rotations.length >= ON_CALL_LIMITS.rotationsPerSchedule}
            onClick={() => setRotations([...rotations, emptyRotation()])}
          >
            Add rotation
          </Button>
        </div>
      </FieldGroup>

      <FieldGroup>
        <legend>Overrides</legend>
        <Hint>Someone on call in place of the rotations for a while; where two overlap, the later in the list wins.</Hint>
        {overrides.map((override, index) => (
          <OverrideFields
            key={index}
            index={index}
            count={overrides.length}
            override={override}
            timeZone={zone}
            problem={form.problem}
            onChange={(changed, part) =>
              setOverrides(
                overrides.map((each, at) => (at === index ? changed : each)),
                [`overrides.${index}.${part}`],
              )
            }
            onListChange={(change) => setOverrides(changedList(overrides, index, change))}
            people={people}
          />
        ))}
        {form.problem('overrides') ? <Problem>Overrides: {form.problem('overrides')}</Problem> : null}
        <div>
          <Button
            type="button"
            $variant="outline"
            disabled={overrides.length >= ON_CALL_LIMITS.overridesPerSchedule}
            onClick={() => setOverrides([...overrides, emptyOverride()])}
          >
            Add override
          </Button>
        </div>
      </FieldGroup>
    </FormDialog>
  );
}
