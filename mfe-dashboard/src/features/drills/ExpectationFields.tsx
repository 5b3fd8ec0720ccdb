import { BREAKER_STATES, type BreakerStateName } from '@cbh/contracts';
import { FormField, Select, TextInput } from '@cbh/ui';
import { ItemFields, ItemHead, ListItem, type ListItemProps } from '../on-call/list-controls';
import { BreakerSelect } from './BreakerSelect';
import type { BreakerChoices } from './breaker-choices';
import type { DrillField, ExpectationDraft } from './drill-form';

/**
 * One expectation of a drill: which breaker should reach which state, and within how long of the drill's start (it
 * opens under the fault) or its end (it closes again once the fault is lifted).
 */
export function ExpectationFields({
  index,
  count,
  expectation,
  choices,
  problem,
  onChange,
  onListChange,
}: ListItemProps<ExpectationDraft, 'breaker' | 'withinSeconds', DrillField> & { expectation: ExpectationDraft; choices: BreakerChoices }) {
  const path = `expectations.${index}` as const;
  const set = (patch: Partial<ExpectationDraft>, part: 'breaker' | 'withinSeconds' = 'breaker') =>
    onChange({ ...expectation, ...patch }, part);
  return (
    <ListItem data-testid={`expectation-${index + 1}`}>
      <ItemHead name={`Expectation ${index + 1}`} index={index} count={count} onChange={onListChange} />
      <BreakerSelect
        value={expectation.breaker}
        choices={choices.expectations}
        problem={problem(`${path}.breaker`)}
        onChange={(breaker) => set({ breaker })}
      />
      <ItemFields $min={160}>
        <FormField label="Reaches">
          {(described) => (
            <Select value={expectation.state} onChange={(event) => set({ state: event.target.value as BreakerStateName })} {...described}>
              {BREAKER_STATES.map((state) => (
                <option key={state} value={state}>
                  {state}
                </option>
              ))}
            </Select>
          )}
        </FormField>
        <FormField label="Within (s)" problem={problem(`${path}.withinSeconds`)}>
          {(described) => (
            <TextInput
              inputMode="numeric"
              autoComplete="off"
              value={expectation.withinSeconds}
              onChange={(event) => set({ withinSeconds: event.target.value }, 'withinSeconds')}
              {...described}
            />
          )}
        </FormField>
        <FormField label="Counted from">
          {(described) => (
            <Select
              value={expectation.after}
              onChange={(event) => set({ after: event.target.value as ExpectationDraft['after'] })}
              {...described}
            >
              <option value="start">The drill’s start</option>
              <option value="end">The drill’s end</option>
            </Select>
          )}
        </FormField>
      </ItemFields>
    </ListItem>
  );
}
