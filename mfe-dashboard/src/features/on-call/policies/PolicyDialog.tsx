import { useCreateEscalationPolicyMutation, useUpdateEscalationPolicyMutation } from '@cbh/api-client';
import { ON_CALL_LIMITS, type EscalationPolicyView } from '@cbh/contracts';
import { Button, FormField, Problem, TextInput } from '@cbh/ui';
import { FormDialog } from '../../shared/form-dialog';
import { TextField } from '../../shared/form-parts';
import { useRecordForm } from '../../shared/use-record-form';
import { changedList } from '../list-controls';
import { emptyStep, POLICY_FORM, type StepDraft } from './policy-form';
import { StepFields, type StepChoices } from './StepFields';

/**
 * Adds an escalation policy, or edits one (`policy`): its steps in order, each telling its targets and waiting for an
 * acknowledgement before the next, and how often the steps run again. An edit sends the steps whole (PATCH replaces
 * them). A refusal keeps the dialog open, with the reason under the field it names.
 */
export function PolicyDialog({ policy, choices, onClose }: { policy?: EscalationPolicyView; choices: StepChoices; onClose: () => void }) {
  const { form, frame } = useRecordForm(policy, POLICY_FORM, useCreateEscalationPolicyMutation, useUpdateEscalationPolicyMutation);
  const { steps } = form.draft;
  const setSteps = (next: StepDraft[], parts: string[] = []) => form.change('steps', next, parts);

  return (
    <FormDialog
      title={policy ? `Edit ${policy.name}` : 'Add escalation policy'}
      description="Who is told, step by step, while an alert group fires and no one acknowledges it."
      formLabel={policy ? 'Edit escalation policy' : 'New escalation policy'}
      wide
      {...frame}
      saved={(saved) => ({ title: policy ? 'Policy Updated' : 'Policy Added', description: `${saved.name} is saved.` })}
      failure="Failed to save the escalation policy."
      onClose={onClose}
    >
      <TextField label="Name" {...form.field('name')} placeholder="Payments paging" />
      {steps.map((step, index) => (
        <StepFields
          // steps have no ids: a step's place is its identity while the dialog is open
          key={index}
          index={index}
          count={steps.length}
          step={step}
          problem={form.problem}
          onChange={(changed, part) =>
            setSteps(
              steps.map((each, at) => (at === index ? changed : each)),
              [`steps.${index}.${part}`],
            )
          }
          onListChange={(change) => setSteps(changedList(steps, index, change))}
          choices={choices}
        />
      ))}
      {form.problem('steps') ? <Problem>Steps: {form.problem('steps')}</Problem> : null}
      <div>
        <Button
          type="button"
          $variant="outline"
          disabled={steps.length >= ON_CALL_LIMITS.stepsPerPolicy}
          onClick={() => setSteps([...steps, emptyStep()])}
        >
          Add step
        </Button>
      </div>
      <FormField
        label="Repeat"
        hint={`Times the steps run again from the first while no one acknowledges, 0–${ON_CALL_LIMITS.repeat}.`}
        problem={form.problem('repeat')}
      >
        {(described) => (
          <TextInput
            type="number"
            inputMode="numeric"
            min={0}
            max={ON_CALL_LIMITS.repeat}
            step={1}
            value={form.draft.repeat}
            onChange={(event) => form.change('repeat', event.target.value)}
            {...described}
          />
        )}
      </FormField>
    </FormDialog>
  );
}
