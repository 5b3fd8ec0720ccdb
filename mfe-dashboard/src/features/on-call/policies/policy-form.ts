import { ON_CALL_LIMITS as L, type EscalationPolicyView } from '@cbh/contracts';
import type { NewEscalationPolicy } from '@cbh/api-client';
import { compact, type Problems } from '../../shared/form-checks';
import type { RecordForm } from '../../shared/use-record-form';
import { listProblem, nameProblem, wholeProblem } from '../on-call-checks';

/*
 * The escalation policy dialog's form. The screens carry no schema library, so these checks repeat what
 * createEscalationPolicySchema checks, in its words and at its paths ('steps.0.notify'); policy-form.spec.ts holds
 * them to the schema. The API judges again (and whether each channel, person and schedule exists).
 */

export interface StepDraft {
  channels: string[];
  users: string[];
  /** a schedule's id, '' for none */
  schedule: string;
  waitMinutes: string;
}

export interface PolicyDraft {
  name: string;
  steps: StepDraft[];
  repeat: string;
}

/** The form's fields, and the parts of its steps a problem may name. */
export type PolicyField = 'name' | 'steps' | 'repeat' | `steps.${number}.${'notify' | 'notify.channels' | 'notify.users' | 'waitMinutes'}`;

/** What a new step waits before the next one, in minutes. */
export const NEW_STEP_WAIT = 5;

export const emptyStep = (): StepDraft => ({ channels: [], users: [], schedule: '', waitMinutes: String(NEW_STEP_WAIT) });

/** The step's own problems, at the schema's paths. */
function stepProblems(step: StepDraft, index: number): Partial<Record<PolicyField, string>> {
  const targets = step.channels.length + step.users.length + (step.schedule ? 1 : 0);
  return {
    [`steps.${index}.notify.channels`]: step.channels.length > L.targetsPerStep ? `must hold at most ${L.targetsPerStep}` : undefined,
    [`steps.${index}.notify.users`]: step.users.length > L.targetsPerStep ? `must hold at most ${L.targetsPerStep}` : undefined,
    [`steps.${index}.notify`]: targets === 0 ? 'must name channels, users or a schedule' : undefined,
    [`steps.${index}.waitMinutes`]: wholeProblem(step.waitMinutes, 0, L.waitMinutes, 'must be whole minutes'),
  };
}

function problems(draft: PolicyDraft): Problems<PolicyField> {
  return compact<PolicyField>({
    name: nameProblem(draft.name),
    steps: listProblem(draft.steps.length, 1, L.stepsPerPolicy, 'step'),
    repeat: wholeProblem(draft.repeat, 0, L.repeat, 'must be a whole number', `must be from 0 to ${L.repeat}`),
    ...Object.assign({}, ...draft.steps.map(stepProblems)),
  });
}

/** The body a draft stands for: a step names only the kinds of target it has. */
function toBody(draft: PolicyDraft): NewEscalationPolicy {
  return {
    name: draft.name.trim(),
    steps: draft.steps.map((step) => ({
      notify: {
        ...(step.channels.length ? { channels: step.channels } : {}),
        ...(step.users.length ? { users: step.users } : {}),
        ...(step.schedule ? { schedule: step.schedule } : {}),
      },
      waitMinutes: Number(step.waitMinutes),
    })),
    repeat: Number(draft.repeat),
  };
}

const draftOf = (policy: EscalationPolicyView): PolicyDraft => ({
  name: policy.name,
  steps: policy.steps.map((step) => ({
    channels: [...(step.notify.channels ?? [])],
    users: [...(step.notify.users ?? [])],
    schedule: step.notify.schedule ?? '',
    waitMinutes: String(step.waitMinutes),
  })),
  repeat: String(policy.repeat),
});

/** The escalation policy dialog's form: its empty draft, its checks, and what it sends (see useRecordForm). */
export const POLICY_FORM: RecordForm<PolicyDraft, PolicyField, EscalationPolicyView, NewEscalationPolicy, Partial<NewEscalationPolicy>> = {
  // the fields a refusal may name ('steps.1: …' goes under the steps)
  fields: ['name', 'steps', 'repeat'],
  empty: () => ({ name: '', steps: [emptyStep()], repeat: '0' }),
  draftOf,
  problems,
  toCreate: toBody,

  /** What the edit changes: the steps are sent whole when any of them changed (PATCH replaces the list). */
  toUpdate(draft, policy) {
    const after = toBody(draft);
    const before = toBody(draftOf(policy));
    const patch: Partial<NewEscalationPolicy> = {};
    if (after.name !== before.name) patch.name = after.name;
    if (JSON.stringify(after.steps) !== JSON.stringify(before.steps)) patch.steps = after.steps;
    if (after.repeat !== before.repeat) patch.repeat = after.repeat;
    return patch;
  },
};
