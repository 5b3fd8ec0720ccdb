import { createDrillSchema } from '@cbh/contracts';
import {
  drillBody,
  drillProblems,
  emptyExpectation,
  emptyStep,
  type DrillDraft,
  type ExpectationDraft,
  type StepDraft,
} from './drill-form';

/** The schema's first message at each path ('steps.0.fault.latencyMs'), as the form keys its own. */
function schemaProblems(draft: DrillDraft): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const issue of createDrillSchema.safeParse(drillBody(draft)).error?.issues ?? []) problems[issue.path.join('.')] ??= issue.message;
  return problems;
}

const step = (fields: Partial<StepDraft> = {}): StepDraft => ({ ...emptyStep('5'), ...fields });
const expectation = (fields: Partial<ExpectationDraft> = {}): ExpectationDraft => ({ ...emptyExpectation('5'), ...fields });
const drill = (fields: Partial<DrillDraft> = {}): DrillDraft => ({
  name: 'Payments latency',
  steps: [step()],
  expectations: [],
  ...fields,
});

describe('the drill form judges as createDrillSchema does', () => {
  it.each<[string, DrillDraft]>([
    ['one latency step', drill()],
    [
      'an error step on a share of the instances',
      drill({ steps: [step({ kind: 'error', latencyMs: '', instances: 'share', instancesPercent: '25' })] }),
    ],
    ['a timeout step without a latency', drill({ steps: [step({ kind: 'timeout', latencyMs: '' })] })],
    [
      'steps and expectations',
      drill({ steps: [step(), step({ breaker: '6' })], expectations: [expectation(), expectation({ after: 'end' })] }),
    ],
    ['no name', drill({ name: '  ' })],
    ['a name too long', drill({ name: 'n'.repeat(101) })],
    ['no step', drill({ steps: [] })],
    ['21 steps', drill({ steps: Array.from({ length: 21 }, () => step()) })],
    ['21 expectations', drill({ expectations: Array.from({ length: 21 }, () => expectation()) })],
    ['a latency fault without its latency', drill({ steps: [step({ latencyMs: ' ' })] })],
    ['a latency too long', drill({ steps: [step({ latencyMs: '120001' })] })],
    ['a latency of 0 ms', drill({ steps: [step({ latencyMs: '0' })] })],
    ['a step of 0 s', drill({ steps: [step({ durationSeconds: '0' })] })],
    ['a step longer than 15 minutes', drill({ steps: [step({ durationSeconds: '901' })] })],
    ['a step of seconds and a half', drill({ steps: [step({ durationSeconds: '1.5' })] })],
    ['an expectation waiting 0 s', drill({ expectations: [expectation({ withinSeconds: '0' })] })],
    ['an expectation waiting over an hour', drill({ expectations: [expectation({ withinSeconds: '3601' })] })],
  ])('%s', (_case, draft) => {
    expect(drillProblems(draft)).toEqual(schemaProblems(draft));
  });

  // the schema words these for a share from 0 to 1, or with its number's own message: the form says what is wrong
  it.each<[string, DrillDraft, Record<string, string>]>([
    ['a rate over 100 %', drill({ steps: [step({ ratePercent: '101' })] }), { 'steps.0.fault.rate': 'must be a percentage from 0 to 100' }],
    ['a negative rate', drill({ steps: [step({ ratePercent: '-1' })] }), { 'steps.0.fault.rate': 'must be a percentage from 0 to 100' }],
    [
      'no share of the instances',
      drill({ steps: [step({ instances: 'share', instancesPercent: '0' })] }),
      { 'steps.0.instances': "must be 'all' or a percentage from 1 to 100" },
    ],
    [
      'a fractional latency',
      drill({ steps: [step({ latencyMs: '2.5' })] }),
      { 'steps.0.fault.latencyMs': 'must be a whole number of milliseconds' },
    ],
    [
      'a fractional wait',
      drill({ expectations: [expectation({ withinSeconds: '2.5' })] }),
      { 'expectations.0.withinSeconds': 'must be a whole number of seconds' },
    ],
  ])('%s: the same fields, in plainer words', (_case, draft, words) => {
    expect(Object.keys(drillProblems(draft))).toEqual(Object.keys(schemaProblems(draft)));
    expect(drillProblems(draft)).toEqual(words);
  });

  it('asks for a breaker, and a number in a field left empty, which would otherwise be sent as 0', () => {
    expect(
      drillProblems(drill({ steps: [step({ breaker: '', durationSeconds: '' })], expectations: [expectation({ breaker: '' })] })),
    ).toEqual({
      'steps.0.breaker': 'choose a breaker',
      'steps.0.durationSeconds': 'must be a number of seconds',
      'expectations.0.breaker': 'choose a breaker',
    });
  });
});

describe('what the drill form sends', () => {
  it('a share of calls from a percentage, the latency only where the fault takes one, the instances as chosen', () => {
    const body = drillBody(
      drill({
        name: ' Payments latency ',
        steps: [
          step({ ratePercent: '12.3' }),
          step({ breaker: '6', kind: 'error', instances: 'share', instancesPercent: '30', durationSeconds: '30' }),
          step({ kind: 'timeout', latencyMs: '' }),
        ],
        expectations: [expectation({ breaker: '6', state: 'CLOSED', withinSeconds: '120', after: 'end' })],
      }),
    );
    expect(body).toEqual({
      name: 'Payments latency',
      steps: [
        { breaker: 5, fault: { kind: 'latency', rate: 0.123, latencyMs: 800 }, instances: 'all', durationSeconds: 60 },
        { breaker: 6, fault: { kind: 'error', rate: 0.25 }, instances: 30, durationSeconds: 30 },
        { breaker: 5, fault: { kind: 'timeout', rate: 0.25 }, instances: 'all', durationSeconds: 60 },
      ],
      expectations: [{ breaker: 6, state: 'CLOSED', withinSeconds: 120, after: 'end' }],
    });
    expect(createDrillSchema.parse(body)).toEqual(body);
  });

  it('leaves the expectations out when there are none', () => {
    expect(drillBody(drill())).not.toHaveProperty('expectations');
  });
});
