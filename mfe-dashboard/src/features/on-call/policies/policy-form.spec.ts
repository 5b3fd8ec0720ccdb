import { createEscalationPolicySchema, type EscalationPolicyView } from '@cbh/contracts';
import { emptyStep, POLICY_FORM, type PolicyDraft, type StepDraft } from './policy-form';

const CHANNEL = '0b6f1c9e-3b0a-4d2e-9f5a-0a1b2c3d4e5f';
const PERSON = '1c7a2d0f-4c1b-4e3f-8a6b-1b2c3d4e5f6a';
const SCHEDULE = '2d8b3e1a-5d2c-4f4a-9b7c-2c3d4e5f6a7b';

/** The schema's first message at each path ('steps.0.notify'), as the form keys its own. */
function schemaProblems(draft: PolicyDraft): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const issue of createEscalationPolicySchema.safeParse(POLICY_FORM.toCreate(draft)).error?.issues ?? [])
    problems[issue.path.join('.')] ??= issue.message;
  return problems;
}

const step = (fields: Partial<StepDraft>): StepDraft => ({ ...emptyStep(), channels: [CHANNEL], ...fields });
const policy = (fields: Partial<PolicyDraft>): PolicyDraft => ({ name: 'Payments paging', steps: [step({})], repeat: '0', ...fields });

describe('the policy form judges as createEscalationPolicySchema does, in its words', () => {
  it.each<[string, PolicyDraft]>([
    ['one step to a channel', policy({})],
    ['a step to each kind of target', policy({ steps: [step({ users: [PERSON], schedule: SCHEDULE }), step({ waitMinutes: '0' })] })],
    ['no name', policy({ name: '  ' })],
    ['a name too long', policy({ name: 'n'.repeat(121) })],
    ['no step', policy({ steps: [] })],
    ['eleven steps', policy({ steps: Array.from({ length: 11 }, () => step({})) })],
    ['a step telling no one', policy({ steps: [step({}), step({ channels: [] })] })],
    [
      'a step with too many channels',
      policy({ steps: [step({ channels: Array.from({ length: 21 }, (_, i) => `${CHANNEL.slice(0, -2)}${10 + i}`) })] }),
    ],
    ['a wait of minutes and seconds', policy({ steps: [step({ waitMinutes: '2.5' })] })],
    ['a wait over a day', policy({ steps: [step({ waitMinutes: '1441' })] })],
    ['repeating too often', policy({ repeat: '6' })],
  ])('%s', (_case, draft) => {
    expect(POLICY_FORM.problems(draft, true)).toEqual(schemaProblems(draft));
  });

  // the schema words these as "must be a number" (its number's own message): the form says what is wrong
  it.each<[string, PolicyDraft, Record<string, string>]>([
    ['a negative wait', policy({ steps: [step({ waitMinutes: '-1' })] }), { 'steps.0.waitMinutes': 'must be at least 0' }],
    ['a negative repeat', policy({ repeat: '-1' }), { repeat: 'must be from 0 to 5' }],
    ['a fractional repeat', policy({ repeat: '1.5' }), { repeat: 'must be a whole number' }],
  ])('%s: the same fields, in plainer words', (_case, draft, words) => {
    expect(Object.keys(POLICY_FORM.problems(draft, true))).toEqual(Object.keys(schemaProblems(draft)));
    expect(POLICY_FORM.problems(draft, true)).toEqual(words);
  });

  it('asks for a number in a field left empty, which would otherwise be sent as 0', () => {
    expect(POLICY_FORM.problems(policy({ steps: [step({ waitMinutes: ' ' })], repeat: '' }), true)).toEqual({
      'steps.0.waitMinutes': 'must be a number',
      repeat: 'must be a number',
    });
  });
});

describe('what the policy form sends', () => {
  const saved: EscalationPolicyView = {
    id: '3e9c4f2b-6e3d-4a5b-8c8d-3d4e5f6a7b8c',
    name: 'Payments paging',
    steps: [
      { notify: { users: [PERSON], schedule: SCHEDULE, channels: [] }, waitMinutes: 5 },
      { notify: { channels: [CHANNEL] }, waitMinutes: 10 },
    ],
    repeat: 1,
    createdAt: '',
    updatedAt: '',
  };

  it('names only the kinds of target a step has', () => {
    expect(POLICY_FORM.toCreate(policy({ steps: [step({ channels: [], users: [PERSON] })], repeat: '2' }))).toEqual({
      name: 'Payments paging',
      steps: [{ notify: { users: [PERSON] }, waitMinutes: 5 }],
      repeat: 2,
    });
  });

  it('sends nothing for an edit that changes nothing, and the steps whole when one changed', () => {
    const draft = POLICY_FORM.draftOf(saved);
    expect(POLICY_FORM.toUpdate(draft, saved)).toEqual({});
    const moved = { ...draft, steps: [draft.steps[1]!, draft.steps[0]!], name: ' Payments paging ' };
    expect(POLICY_FORM.toUpdate(moved, saved)).toEqual({
      steps: [
        { notify: { channels: [CHANNEL] }, waitMinutes: 10 },
        { notify: { users: [PERSON], schedule: SCHEDULE }, waitMinutes: 5 },
      ],
    });
  });
});
