import { between, chance } from './random';
import { Simulation, type SimulationOptions } from './simulation';

/** §9: steps take 1–3 s and fail 15 % of the time; compensations take 0.8–2 s and fail 5 %; 5 failures shown; retry after 0.1 s. */
export const SAGA = {
  stepMs: [1000, 3000],
  stepFailureShare: 0.15,
  compensationMs: [800, 2000],
  compensationFailureShare: 0.05,
  failuresShown: 5,
  retryAfterMs: 100,
  /** bounds on what a long-open page keeps */
  sagasKept: 50,
  compensationsKept: 100,
} as const;

export const STEP_FAILURE = 'Service unavailable';
export const COMPENSATION_FAILURE = 'Compensation failed';

export interface StepTemplate {
  name: string;
  service: string;
  action: string;
  compensationAction: string;
}

export const SAGA_TEMPLATES = {
  'order-processing': {
    name: 'Order Processing Saga',
    steps: [
      { name: 'Validate Order', service: 'order-service', action: 'validateOrder', compensationAction: 'cancelValidation' },
      { name: 'Reserve Inventory', service: 'inventory-service', action: 'reserveItems', compensationAction: 'releaseItems' },
      { name: 'Process Payment', service: 'payment-service', action: 'chargeCard', compensationAction: 'refundPayment' },
      { name: 'Create Shipment', service: 'shipping-service', action: 'createShipment', compensationAction: 'cancelShipment' },
      { name: 'Send Confirmation', service: 'notification-service', action: 'sendConfirmation', compensationAction: 'sendCancellation' },
      { name: 'Update Loyalty Points', service: 'loyalty-service', action: 'addPoints', compensationAction: 'removePoints' },
    ],
  },
  'account-creation': {
    name: 'Account Creation Saga',
    steps: [
      { name: 'Validate Email', service: 'user-service', action: 'validateEmail', compensationAction: 'releaseEmail' },
      { name: 'Create User', service: 'user-service', action: 'createUser', compensationAction: 'deleteUser' },
      { name: 'Create Profile', service: 'profile-service', action: 'createProfile', compensationAction: 'deleteProfile' },
      { name: 'Setup Billing', service: 'billing-service', action: 'createBillingAccount', compensationAction: 'closeBillingAccount' },
      { name: 'Send Welcome Email', service: 'notification-service', action: 'sendWelcome', compensationAction: 'sendApology' },
    ],
  },
} as const satisfies Record<string, { name: string; steps: readonly StepTemplate[] }>;
export type SagaTemplateId = keyof typeof SAGA_TEMPLATES;

/** A compensation runs as 'executing' too (§4): the saga's own status, compensating, tells which way it is going. */
export type StepStatus = 'pending' | 'executing' | 'completed' | 'failed' | 'compensated';
export type SagaStatus = 'running' | 'compensating' | 'completed' | 'compensated';

export interface SagaStep extends StepTemplate {
  id: string;
  status: StepStatus;
  /** ms the step (or its compensation) took */
  duration: number | null;
  error: string | null;
}

export interface Saga {
  id: string;
  template: SagaTemplateId;
  name: string;
  status: SagaStatus;
  steps: SagaStep[];
  /** index of the step being executed or compensated */
  currentStep: number;
  startTime: number;
  endTime: number | null;
  totalDuration: number | null;
  /** whether a step failed in this run (the saga then compensates) */
  failed: boolean;
}

export interface CompensationRecord {
  sagaId: string;
  stepId: string;
  action: string;
  timestamp: number;
  success: boolean;
  error: string | null;
}

export interface FailureRecord {
  sagaId: string;
  sagaName: string;
  step: string;
  error: string;
  timestamp: number;
}

export interface SagaState {
  /** newest first */
  sagas: Saga[];
  /** newest first */
  compensations: CompensationRecord[];
  /** the last SAGA.failuresShown, newest first */
  failures: FailureRecord[];
  /** runs (a retry is a run of its own): each ends successful or compensated; failed counts runs where a step failed */
  counts: { total: number; successful: number; failed: number; compensated: number };
  /** every step and compensation that ran, and how many of each failed (the shares the monitoring tab shows) */
  stepRuns: { run: number; failed: number };
  compensationRuns: { run: number; failed: number };
  /** finished runs per template */
  runs: Record<SagaTemplateId, { finished: number; completed: number }>;
}

/** A template's share of runs that completed, or null before any run finished. */
export function successRate(state: SagaState, template: SagaTemplateId): number | null {
  const { finished, completed } = state.runs[template];
  return finished === 0 ? null : completed / finished;
}

/**
 * Sagas: each step runs after the one before it (pending → executing → completed); when one fails, the saga
 * compensates the steps that completed, in reverse order, and ends compensated; otherwise it ends completed.
 */
export class SagaSimulation extends Simulation<SagaState> {
  /** every saga still running plus the newest finished ones, oldest first; the state shows the newest of them */
  private readonly kept = new Map<string, Saga>();

  constructor(options: SimulationOptions = {}) {
    super(
      {
        sagas: [],
        compensations: [],
        failures: [],
        counts: { total: 0, successful: 0, failed: 0, compensated: 0 },
        stepRuns: { run: 0, failed: 0 },
        compensationRuns: { run: 0, failed: 0 },
        runs: { 'order-processing': { finished: 0, completed: 0 }, 'account-creation': { finished: 0, completed: 0 } },
      },
      options,
    );
  }

  start(template: SagaTemplateId): string {
    const id = this.nextId('saga');
    const saga: Saga = {
      id,
      template,
      name: SAGA_TEMPLATES[template].name,
      status: 'running',
      steps: SAGA_TEMPLATES[template].steps.map((step, i) => ({
        ...step,
        id: `${id}-step-${i + 1}`,
        status: 'pending',
        duration: null,
        error: null,
      })),
      currentStep: 0,
      startTime: this.scheduler.now(),
      endTime: null,
      totalDuration: null,
      failed: false,
    };
    this.update((state) => ({ ...state, counts: { ...state.counts, total: state.counts.total + 1 } }));
    this.kept.set(id, saga);
    this.publishSagas();
    this.execute(id, 0);
    return id;
  }

  /** Runs a failed (compensated) saga again from its first step, every step pending, after 0.1 s. */
  retry(sagaId: string) {
    const saga = this.saga(sagaId);
    if (!saga || saga.status !== 'compensated') return;
    this.patch(sagaId, (s) => ({
      ...s,
      status: 'running',
      failed: false,
      currentStep: 0,
      startTime: this.scheduler.now(),
      endTime: null,
      totalDuration: null,
      steps: s.steps.map((step) => ({ ...step, status: 'pending', duration: null, error: null })),
    }));
    // a retry is another run: counted, so successful + compensated always add up to the total
    this.update((state) => ({ ...state, counts: { ...state.counts, total: state.counts.total + 1 } }));
    this.after(SAGA.retryAfterMs, () => this.execute(sagaId, 0));
  }

  private saga(id: string) {
    return this.kept.get(id);
  }

  private patch(id: string, change: (saga: Saga) => Saga) {
    const saga = this.kept.get(id);
    if (!saga) return;
    this.kept.set(id, change(saga));
    this.publishSagas();
  }

  /**
   * Shows the newest SAGA.sagasKept sagas and forgets finished ones older than those; a running saga is never
   * forgotten, so that it still ends and is counted.
   */
  private publishSagas() {
    const newestFirst = [...this.kept.values()].reverse();
    newestFirst.slice(SAGA.sagasKept).forEach((saga) => {
      if (saga.status === 'completed' || saga.status === 'compensated') this.kept.delete(saga.id);
    });
    this.update((state) => ({ ...state, sagas: newestFirst.slice(0, SAGA.sagasKept) }));
  }

  private setStep(id: string, index: number, step: Partial<SagaStep>) {
    this.patch(id, (saga) => ({ ...saga, currentStep: index, steps: saga.steps.map((s, i) => (i === index ? { ...s, ...step } : s)) }));
  }

  private execute(id: string, index: number) {
    const saga = this.saga(id);
    if (!saga) return;
    if (index >= saga.steps.length) return this.finish(id, 'completed');
    this.setStep(id, index, { status: 'executing' });
    const duration = Math.round(between(this.random, SAGA.stepMs[0], SAGA.stepMs[1]));
    this.after(duration, () => {
      const fails = chance(this.random, SAGA.stepFailureShare);
      this.update((state) => ({ ...state, stepRuns: { run: state.stepRuns.run + 1, failed: state.stepRuns.failed + (fails ? 1 : 0) } }));
      if (fails) {
        this.setStep(id, index, { status: 'failed', duration, error: STEP_FAILURE });
        const failedSaga = this.saga(id)!;
        this.update((state) => ({
          ...state,
          failures: [
            {
              sagaId: id,
              sagaName: failedSaga.name,
              step: failedSaga.steps[index]!.name,
              error: STEP_FAILURE,
              timestamp: this.scheduler.now(),
            },
            ...state.failures,
          ].slice(0, SAGA.failuresShown),
          counts: { ...state.counts, failed: state.counts.failed + 1 },
        }));
        this.patch(id, (s) => ({ ...s, status: 'compensating', failed: true }));
        this.compensate(id, index - 1);
        return;
      }
      this.setStep(id, index, { status: 'completed', duration });
      this.execute(id, index + 1);
    });
  }

  /** Walks back over the completed steps, last first: each executing while its compensation runs. */
  private compensate(id: string, index: number) {
    if (index < 0) return this.finish(id, 'compensated');
    this.setStep(id, index, { status: 'executing' });
    const duration = Math.round(between(this.random, SAGA.compensationMs[0], SAGA.compensationMs[1]));
    this.after(duration, () => {
      const success = !chance(this.random, SAGA.compensationFailureShare);
      const step = this.saga(id)!.steps[index]!;
      this.setStep(id, index, success ? { status: 'compensated', duration } : { status: 'failed', duration, error: COMPENSATION_FAILURE });
      const record: CompensationRecord = {
        sagaId: id,
        stepId: step.id,
        action: step.compensationAction,
        timestamp: this.scheduler.now(),
        success,
        error: success ? null : COMPENSATION_FAILURE,
      };
      this.update((state) => ({
        ...state,
        compensations: [record, ...state.compensations].slice(0, SAGA.compensationsKept),
        compensationRuns: { run: state.compensationRuns.run + 1, failed: state.compensationRuns.failed + (success ? 0 : 1) },
      }));
      this.compensate(id, index - 1);
    });
  }

  private finish(id: string, status: 'completed' | 'compensated') {
    const now = this.scheduler.now();
    const saga = this.saga(id)!;
    this.patch(id, (s) => ({ ...s, status, endTime: now, totalDuration: now - s.startTime }));
    this.update((state) => {
      const runs = state.runs[saga.template];
      return {
        ...state,
        counts: {
          ...state.counts,
          successful: state.counts.successful + (status === 'completed' ? 1 : 0),
          compensated: state.counts.compensated + (status === 'compensated' ? 1 : 0),
        },
        runs: {
          ...state.runs,
          [saga.template]: { finished: runs.finished + 1, completed: runs.completed + (status === 'completed' ? 1 : 0) },
        },
      };
    });
  }
}
