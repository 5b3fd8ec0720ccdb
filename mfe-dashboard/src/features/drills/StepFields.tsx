import { FAULT_KINDS, type FaultKind } from '@cbh/contracts';
import { FormField, Hint, Select, TextInput } from '@cbh/ui';
import { ItemFields, ItemHead, ListItem, type ListItemProps } from '../on-call/list-controls';
import { BreakerSelect } from './BreakerSelect';
import type { BreakerChoices } from './breaker-choices';
import { drillBody, drillProblems, type DrillField, type StepDraft } from './drill-form';
import { blastRadius } from './drill-text';

type StepPart = 'breaker' | 'fault.rate' | 'fault.latencyMs' | 'instances' | 'durationSeconds';

const FAULT_TEXT: Record<FaultKind, string> = { latency: 'Latency', error: 'Errors', timeout: 'Timeouts' };

/** A number typed into a step: a text field with a phone's number pad, so what was typed is judged as typed. */
function NumberField({
  label,
  hint,
  value,
  problem,
  onChange,
}: {
  label: string;
  hint?: string;
  value: string;
  problem?: string;
  onChange: (value: string) => void;
}) {
  return (
    <FormField label={label} hint={hint} problem={problem}>
      {(described) => (
        <TextInput inputMode="decimal" autoComplete="off" value={value} onChange={(event) => onChange(event.target.value)} {...described} />
      )}
    </FormField>
  );
}

/** What the step will do, in words, once it is complete: the same line the confirmation shows. */
function Preview({ step, choices }: { step: StepDraft; choices: BreakerChoices }) {
  const breaker = choices.byId.get(step.breaker);
  const draft = { name: 'preview', steps: [step], expectations: [] };
  if (!breaker || Object.keys(drillProblems(draft)).length > 0) return null;
  const [body] = drillBody(draft).steps;
  return <Hint data-testid="step-preview">{blastRadius({ ...body!, breaker })}</Hint>;
}

/**
 * One step of a drill: which breaker's calls, what fault on what share of them, on which instances, for how long.
 * `onChange` names the part changed, so its problem shows from then on.
 */
export function StepFields({
  index,
  count,
  step,
  choices,
  problem,
  onChange,
  onListChange,
}: ListItemProps<StepDraft, StepPart, DrillField> & { step: StepDraft; choices: BreakerChoices }) {
  const path = `steps.${index}` as const;
  const set = (part: StepPart, patch: Partial<StepDraft>) => onChange({ ...step, ...patch }, part);
  return (
    <ListItem data-testid={`step-${index + 1}`}>
      <ItemHead name={`Step ${index + 1}`} index={index} count={count} onChange={onListChange} removable={count > 1} />
      <BreakerSelect
        value={step.breaker}
        choices={choices.steps}
        problem={problem(`${path}.breaker`)}
        hint="A breaker of the hub, or of a service whose agent allows faults."
        onChange={(breaker) => set('breaker', { breaker })}
      />
      <ItemFields $min={160}>
        <FormField label="Fault">
          {(described) => (
            <Select
              value={step.kind}
              onChange={(event) => set('fault.latencyMs', { kind: event.target.value as FaultKind })}
              {...described}
            >
              {FAULT_KINDS.map((kind) => (
                <option key={kind} value={kind}>
                  {FAULT_TEXT[kind]}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <NumberField
          label="Calls hit (%)"
          value={step.ratePercent}
          problem={problem(`${path}.fault.rate`)}
          onChange={(ratePercent) => set('fault.rate', { ratePercent })}
        />
        {step.kind === 'error' ? null : (
          <NumberField
            label="Latency (ms)"
            hint={step.kind === 'timeout' ? 'Empty: the breaker’s timeout and a little more.' : undefined}
            value={step.latencyMs}
            problem={problem(`${path}.fault.latencyMs`)}
            onChange={(latencyMs) => set('fault.latencyMs', { latencyMs })}
          />
        )}
      </ItemFields>
      <ItemFields $min={160}>
        <FormField label="Instances">
          {(described) => (
            <Select
              value={step.instances}
              onChange={(event) => set('instances', { instances: event.target.value as StepDraft['instances'] })}
              {...described}
            >
              <option value="all">All instances</option>
              <option value="share">A share of them</option>
            </Select>
          )}
        </FormField>
        {step.instances === 'share' ? (
          <NumberField
            label="Instances hit (%)"
            value={step.instancesPercent}
            problem={problem(`${path}.instances`)}
            onChange={(instancesPercent) => set('instances', { instancesPercent })}
          />
        ) : null}
        <NumberField
          label="Duration (s)"
          value={step.durationSeconds}
          problem={problem(`${path}.durationSeconds`)}
          onChange={(durationSeconds) => set('durationSeconds', { durationSeconds })}
        />
      </ItemFields>
      <Preview step={step} choices={choices} />
    </ListItem>
  );
}
