import { FormField, Select } from '@cbh/ui';
import type { BreakerChoice } from './breaker-choices';

/** A breaker picked from a list, '' until one is: a drill names its breakers on purpose, none is chosen for it. */
export function BreakerSelect({
  value,
  choices,
  problem,
  hint,
  onChange,
}: {
  value: string;
  choices: readonly BreakerChoice[];
  problem?: string;
  hint?: string;
  onChange: (breaker: string) => void;
}) {
  return (
    <FormField label="Breaker" hint={hint} problem={problem}>
      {(described) => (
        <Select value={value} onChange={(event) => onChange(event.target.value)} {...described}>
          <option value="">Choose a breaker…</option>
          {choices.map((choice) => (
            <option key={choice.id} value={String(choice.id)}>
              {choice.label}
            </option>
          ))}
        </Select>
      )}
    </FormField>
  );
}
