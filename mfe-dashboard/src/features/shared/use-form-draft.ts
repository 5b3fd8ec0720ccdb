import { useState } from 'react';
import { hasProblems, serverProblems, type Problems } from './form-checks';

/**
 * A form's draft and what is wrong with it. A field's problem shows once the field has been changed, and stays
 * current as people type; a refusal from the server shows under the field it names until that field changes.
 */
export function useFormDraft<Draft extends object, Field extends string>(
  initial: Draft,
  judge: (draft: Draft) => Problems<Field>,
  fields: readonly Field[],
) {
  const [draft, setDraft] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [refusal, setRefusal] = useState<Problems<Field | 'form'>>({});
  const problems = judge(draft);
  const problem = (field: Field): string | undefined => refusal[field] ?? (touched.has(field) ? problems[field] : undefined);

  /**
   * `parts` names what inside a list field was changed ('steps.1.waitMinutes'), so that an item's problem shows once
   * that item has been changed, not as soon as another item is added.
   */
  const change = <Key extends keyof Draft & string>(key: Key, value: Draft[Key], parts: readonly string[] = []) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setTouched((current) => new Set([...current, key, ...parts]));
    // what the server said about this field, or about the whole form, no longer holds once the field changes
    setRefusal(
      (current) =>
        Object.fromEntries(Object.entries(current).filter(([field]) => field !== key && field !== 'form')) as Problems<Field | 'form'>,
    );
  };

  return {
    draft,
    change,
    /** Whether Save may be pressed: nothing the form can judge is wrong. */
    valid: !hasProblems(problems),
    problem,
    /** A field's value, problem and change, as TextField and SecretField take them. */
    field: <Key extends keyof Draft & Field>(key: Key) => ({
      value: draft[key],
      problem: problem(key),
      onChange: (value: Draft[Key]) => change(key, value),
    }),
    formProblem: refusal.form,
    refused: (error: unknown, fallback: string) => setRefusal(serverProblems(error, fields, fallback)),
  };
}
