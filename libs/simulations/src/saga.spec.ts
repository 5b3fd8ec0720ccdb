import { seededRandom } from './random';
import { COMPENSATION_FAILURE, SAGA, SAGA_TEMPLATES, SagaSimulation, STEP_FAILURE, successRate } from './saga';
import { FakeScheduler } from './scheduler';

const setup = (seed: number) => {
  const scheduler = new FakeScheduler();
  return { scheduler, sagas: new SagaSimulation({ scheduler, random: seededRandom(seed) }) };
};
/** Long enough for any saga to end: every step and every compensation at their longest. */
const LONGEST = 6 * SAGA.stepMs[1] + 6 * SAGA.compensationMs[1] + SAGA.retryAfterMs;

it('has the two templates: Order Processing with 6 steps, Account Creation with 5', () => {
  expect(SAGA_TEMPLATES['order-processing']).toMatchObject({ name: 'Order Processing Saga' });
  expect(SAGA_TEMPLATES['order-processing'].steps).toHaveLength(6);
  expect(SAGA_TEMPLATES['account-creation']).toMatchObject({ name: 'Account Creation Saga' });
  expect(SAGA_TEMPLATES['account-creation'].steps).toHaveLength(5);
});

it('runs steps one after another, pending → executing → completed in 1–3 s each, and ends completed', () => {
  // find a seed whose first run completes
  for (let seed = 1; seed < 500; seed++) {
    const { scheduler, sagas } = setup(seed);
    const id = sagas.start('account-creation');
    const saga = () => sagas.state.sagas.find((s) => s.id === id)!;
    expect(saga().steps.map((step) => step.status)).toEqual(['executing', 'pending', 'pending', 'pending', 'pending']);
    scheduler.advance(LONGEST);
    if (saga().status !== 'completed') continue;
    expect(saga().steps.every((step) => step.status === 'completed' && step.duration! >= 1000 && step.duration! <= 3000)).toBe(true);
    expect(saga().totalDuration).toBe(saga().steps.reduce((sum, step) => sum + step.duration!, 0));
    expect(sagas.state.counts).toEqual({ total: 1, successful: 1, failed: 0, compensated: 0 });
    expect(successRate(sagas.state, 'account-creation')).toBe(1);
    expect(successRate(sagas.state, 'order-processing')).toBeNull();
    break;
  }
});

it('after a failed step compensates the completed steps in reverse order and ends compensated', () => {
  for (let seed = 1; seed < 500; seed++) {
    const { scheduler, sagas } = setup(seed);
    const id = sagas.start('order-processing');
    scheduler.advance(LONGEST);
    const saga = sagas.state.sagas.find((s) => s.id === id)!;
    const failedAt = saga.steps.findIndex((step) => step.error === STEP_FAILURE);
    if (failedAt < 2) continue; // a run with at least two completed steps before the failure
    expect(saga.status).toBe('compensated');
    expect(saga.steps.slice(failedAt + 1).every((step) => step.status === 'pending')).toBe(true);
    const compensated = [...sagas.state.compensations].reverse();
    expect(compensated.map((record) => record.action)).toEqual(
      saga.steps
        .slice(0, failedAt)
        .map((step) => step.compensationAction)
        .reverse(),
    );
    for (const step of saga.steps.slice(0, failedAt)) expect(['compensated', 'failed']).toContain(step.status);
    expect(sagas.state.failures[0]).toMatchObject({ sagaId: id, step: saga.steps[failedAt]!.name, error: STEP_FAILURE });
    expect(sagas.state.counts).toMatchObject({ total: 1, failed: 1, compensated: 1, successful: 0 });
    break;
  }
});

it('fails about 15 % of steps and 5 % of compensations over many runs (each within 2 points), and keeps bounded lists', () => {
  const { scheduler, sagas } = setup(2024);
  for (let i = 0; i < 3000; i++) sagas.start(i % 2 ? 'order-processing' : 'account-creation');
  scheduler.advance(LONGEST);
  const { total, successful, compensated, failed } = sagas.state.counts;
  expect(total).toBe(3000);
  expect(successful + compensated).toBe(3000);
  expect(failed).toBe(compensated);
  const steps = sagas.state.stepRuns;
  expect(steps.failed).toBe(failed);
  expect(steps.failed / steps.run).toBeGreaterThan(0.13);
  expect(steps.failed / steps.run).toBeLessThan(0.17);
  const compensations = sagas.state.compensationRuns;
  expect(compensations.run).toBeGreaterThan(1000);
  expect(compensations.failed / compensations.run).toBeGreaterThan(0.03);
  expect(compensations.failed / compensations.run).toBeLessThan(0.07);
  expect(sagas.state.failures).toHaveLength(SAGA.failuresShown);
  expect(sagas.state.sagas).toHaveLength(SAGA.sagasKept);
  expect(sagas.state.compensations).toHaveLength(SAGA.compensationsKept);
  const rate = (template: 'order-processing' | 'account-creation') => successRate(sagas.state, template)!;
  // six steps at 85 % each, five steps: 0.85^6 ≈ 0.38, 0.85^5 ≈ 0.44
  expect(rate('order-processing')).toBeGreaterThan(0.33);
  expect(rate('order-processing')).toBeLessThan(0.43);
  expect(rate('account-creation')).toBeGreaterThan(0.39);
  expect(rate('account-creation')).toBeLessThan(0.49);
});

it('retries a compensated saga from its first step after 0.1 s, every step pending again', () => {
  for (let seed = 1; seed < 500; seed++) {
    const { scheduler, sagas } = setup(seed);
    const id = sagas.start('account-creation');
    scheduler.advance(LONGEST);
    if (sagas.state.sagas[0]!.status !== 'compensated') continue;
    sagas.retry(id);
    // a retry is another run
    expect(sagas.state.counts.total).toBe(2);
    expect(sagas.state.sagas[0]!.steps.every((step) => step.status === 'pending' && step.error === null)).toBe(true);
    expect(sagas.state.sagas[0]!.status).toBe('running');
    scheduler.advance(SAGA.retryAfterMs - 1);
    expect(sagas.state.sagas[0]!.steps[0]!.status).toBe('pending');
    scheduler.advance(1);
    expect(sagas.state.sagas[0]!.steps[0]!.status).toBe('executing');
    break;
  }
});

it('records a failed compensation with its message', () => {
  for (let seed = 1; seed < 5000; seed++) {
    const { scheduler, sagas } = setup(seed);
    sagas.start('order-processing');
    scheduler.advance(LONGEST);
    const failedCompensation = sagas.state.compensations.find((record) => !record.success);
    if (!failedCompensation) continue;
    expect(failedCompensation.error).toBe(COMPENSATION_FAILURE);
    expect(sagas.state.sagas[0]!.status).toBe('compensated');
    return;
  }
  throw new Error('no seed below 5000 gave a failed compensation');
});
