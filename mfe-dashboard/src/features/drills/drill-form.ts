import { DRILL_LIMITS as L, type BreakerStateName, type CreateDrill, type FaultKind } from '@cbh/contracts';
import { compact, type Problems } from '../shared/form-checks';

/*
 * The new drill form. The screens carry no schema library, so these checks repeat what createDrillSchema checks, at
 * its paths ('steps.0.fault.latencyMs') and in its words where they read well to someone typing a percentage rather
 * than a share; drill-form.spec.ts holds them to the schema. The API judges again (and whether each breaker exists).
 */

export interface StepDraft {
  /** A breaker's id on the hub, '' until one is chosen. */
  breaker: string;
  kind: FaultKind;
  /** The share of calls hit, as a percentage typed ('25'). */
  ratePercent: string;
  /** latency: the delay; timeout: how long the calls take, '' for the breaker's timeout and more. */
  latencyMs: string;
  instances: 'all' | 'share';
  /** The percentage of instances, when `instances` is 'share'. */
  instancesPercent: string;
  durationSeconds: string;
}

export interface ExpectationDraft {
  breaker: string;
  state: BreakerStateName;
  withinSeconds: string;
  after: 'start' | 'end';
}

export interface DrillDraft {
  name: string;
  steps: StepDraft[];
  expectations: ExpectationDraft[];
}

type StepPart = 'breaker' | 'fault.rate' | 'fault.latencyMs' | 'instances' | 'durationSeconds';
type ExpectationPart = 'breaker' | 'withinSeconds';
/** The form's fields, and the parts of its steps and expectations a problem may name. */
export type DrillField = 'name' | 'steps' | 'expectations' | `steps.${number}.${StepPart}` | `expectations.${number}.${ExpectationPart}`;
/** The fields a refusal of the API may name by themselves. */
export const DRILL_FIELDS = ['name', 'steps', 'expectations'] as const;

/** A first step hurts a quarter of the calls for a minute: enough to see a reaction, little enough to try. */
export const emptyStep = (breaker = ''): StepDraft => ({
  breaker,
  kind: 'latency',
  ratePercent: '25',
  latencyMs: '800',
  instances: 'all',
  instancesPercent: '50',
  durationSeconds: '60',
});

export const emptyExpectation = (breaker = ''): ExpectationDraft => ({ breaker, state: 'OPEN', withinSeconds: '30', after: 'start' });

export const emptyDrill = (): DrillDraft => ({ name: '', steps: [emptyStep()], expectations: [] });

/** A number typed into a field, whole and within min–max; `unit` names what it counts ('must be a whole number of seconds'). */
function wholeProblem(text: string, min: number, max: number, unit: string): string | undefined {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) return `must be a number of ${unit}`;
  if (!Number.isInteger(value)) return `must be a whole number of ${unit}`;
  if (value < min) return `must be at least ${min}`;
  if (value > max) return `must be at most ${max}`;
  return undefined;
}

function percentProblem(text: string, min: number): string | undefined {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > 100) return `must be a percentage from ${min} to 100`;
  return undefined;
}

const breakerProblem = (breaker: string) => (breaker === '' ? 'choose a breaker' : undefined);

function stepProblems(step: StepDraft, index: number): Partial<Record<DrillField, string>> {
  const path = `steps.${index}` as const;
  const latency =
    step.kind === 'error'
      ? undefined
      : step.kind === 'latency' && step.latencyMs.trim() === ''
        ? 'a latency fault needs latencyMs'
        : step.latencyMs.trim() === ''
          ? undefined
          : wholeProblem(step.latencyMs, 1, L.latencyMsMax, 'milliseconds');
  return {
    [`${path}.breaker`]: breakerProblem(step.breaker),
    [`${path}.fault.rate`]: percentProblem(step.ratePercent, 0),
    [`${path}.fault.latencyMs`]: latency,
    [`${path}.instances`]: step.instances === 'all' ? undefined : percentWhole(step.instancesPercent),
    [`${path}.durationSeconds`]: wholeProblem(step.durationSeconds, 1, L.durationSecondsMax, 'seconds'),
  };
}

/** A share of instances is a whole percentage (the instances are picked by a hash of each). */
function percentWhole(text: string): string | undefined {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < 1 || value > 100) return "must be 'all' or a percentage from 1 to 100";
  return undefined;
}

function expectationProblems(expectation: ExpectationDraft, index: number): Partial<Record<DrillField, string>> {
  const path = `expectations.${index}` as const;
  return {
    [`${path}.breaker`]: breakerProblem(expectation.breaker),
    [`${path}.withinSeconds`]: wholeProblem(expectation.withinSeconds, 1, L.withinSecondsMax, 'seconds'),
  };
}

/** What is wrong with a draft, each problem at the schema's path. */
export function drillProblems(draft: DrillDraft): Problems<DrillField> {
  const name = draft.name.trim();
  return compact<DrillField>({
    name: !name ? 'must not be empty' : name.length > L.nameLength ? `must be at most ${L.nameLength} characters` : undefined,
    steps:
      draft.steps.length === 0 ? 'name at least one step' : draft.steps.length > L.steps ? `must hold at most ${L.steps} steps` : undefined,
    expectations: draft.expectations.length > L.expectations ? `must hold at most ${L.expectations} expectations` : undefined,
    ...Object.assign({}, ...draft.steps.map(stepProblems), ...draft.expectations.map(expectationProblems)),
  });
}

/** A percentage as the share the API takes: '25' → 0.25 (rounded, so that '12.3' is not sent as 0.12300000000000001). */
const share = (percent: string) => Math.round(Number(percent) * 1e6) / 1e8;

/** The body of POST /api/drills a valid draft stands for: only the fields each fault and choice takes. */
export function drillBody(draft: DrillDraft): CreateDrill {
  const steps = draft.steps.map((step) => {
    const latency = step.kind !== 'error' && step.latencyMs.trim() !== '' ? { latencyMs: Number(step.latencyMs) } : {};
    return {
      breaker: Number(step.breaker),
      fault: { kind: step.kind, rate: share(step.ratePercent), ...latency },
      instances: step.instances === 'all' ? ('all' as const) : Number(step.instancesPercent),
      durationSeconds: Number(step.durationSeconds),
    };
  });
  const expectations = draft.expectations.map((expectation) => ({
    breaker: Number(expectation.breaker),
    state: expectation.state,
    withinSeconds: Number(expectation.withinSeconds),
    after: expectation.after,
  }));
  return { name: draft.name.trim(), steps, ...(expectations.length ? { expectations } : {}) };
}
