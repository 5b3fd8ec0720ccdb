import {
  initialBreakerState,
  isFailing,
  isSlow,
  MICROSERVICES,
  MicroservicesSimulation,
  NEXT_BREAKER_STATE,
  serviceAlerts,
} from './microservices';
import { seededRandom } from './random';
import { FakeScheduler } from './scheduler';

const setup = (seed = 4) => {
  const scheduler = new FakeScheduler();
  return { scheduler, ms: new MicroservicesSimulation({ scheduler, random: seededRandom(seed) }) };
};
const service = (ms: MicroservicesSimulation, id: string) => ms.state.services.find((s) => s.id === id)!;

it('seeds the six services with payment degraded, each breaker starting from its error rate', () => {
  const { ms } = setup();
  expect(ms.state.services.map((s) => s.id)).toEqual(['user', 'order', 'payment', 'inventory', 'notification', 'authentication']);
  expect(ms.state.services.filter((s) => s.status !== 'healthy').map((s) => [s.id, s.status])).toEqual([['payment', 'degraded']]);
  expect(initialBreakerState(3.1)).toBe('OPEN');
  expect(initialBreakerState(3)).toBe('HALF_OPEN');
  expect(initialBreakerState(1.01)).toBe('HALF_OPEN');
  expect(initialBreakerState(1)).toBe('CLOSED');
  for (const s of ms.state.services) {
    expect([s.id, s.breaker]).toEqual([s.id, initialBreakerState(s.errorRate)]);
    // the figure shown is the real breaker's state
    expect(ms.breakerOf(s.id)!.state).toBe(s.breaker);
  }
  expect(service(ms, 'payment').breaker).toBe('OPEN');
  expect(service(ms, 'order').breaker).toBe('HALF_OPEN');
});

it('cycles a breaker closed → open → half-open → closed through the real state machine', () => {
  const { ms } = setup();
  const breaker = ms.breakerOf('user')!;
  const seen: string[] = [];
  const reasons: string[] = [];
  breaker.onTransition((transition) => {
    seen.push(`${transition.from}→${transition.to}`);
    reasons.push(transition.reason);
  });
  const states = [service(ms, 'user').breaker];
  for (let i = 0; i < 3; i++) {
    ms.toggleBreaker('user');
    states.push(service(ms, 'user').breaker);
  }
  expect(states).toEqual(['CLOSED', 'OPEN', 'HALF_OPEN', 'CLOSED']);
  expect(states.slice(1)).toEqual(states.slice(0, -1).map((state) => NEXT_BREAKER_STATE[state]));
  // tripped by failures, half-opened by its open period passing, closed by reset: three real transitions
  expect(seen).toEqual(['CLOSED→OPEN', 'OPEN→HALF_OPEN', 'HALF_OPEN→CLOSED']);
  expect(reasons).toEqual(['5 consecutive failures', 'open period of 30 s elapsed', 'reset']);
  expect(breaker.admit()).toBe('permitted');
});

it('shows a breaker HALF_OPEN once its open period passes, and Toggle then closes it', () => {
  const { scheduler, ms } = setup();
  ms.start();
  ms.toggleBreaker('user');
  expect(service(ms, 'user').breaker).toBe('OPEN');
  scheduler.advance(ms.breakerOf('user')!.settings.timeout + MICROSERVICES.callEveryMs);
  expect(service(ms, 'user').breaker).toBe('HALF_OPEN');
  // payment was OPEN from the start: it half-opens too
  expect(service(ms, 'payment').breaker).not.toBe('OPEN');
  ms.toggleBreaker('user');
  expect(service(ms, 'user').breaker).toBe('CLOSED');
  ms.stop();
});

it('sends calls through the callee’s breaker: an open one refuses them, failures are recorded', () => {
  const { ms } = setup();
  ms.toggleBreaker('user'); // OPEN
  let refused = 0;
  for (let i = 0; i < 300; i++) {
    ms.call();
    const call = ms.state.calls[0]!;
    expect(call.from).not.toBe(call.to);
    if (call.to === 'User Service') {
      expect(call.status).toBe(500);
      expect(call.responseTime).toBe(0);
      refused++;
    }
  }
  expect(refused).toBeGreaterThan(0);
});

it('scales up and down, never below one instance, and restarts a service healthy with new figures', () => {
  const { ms } = setup();
  const start = service(ms, 'payment').instances;
  ms.scale('payment', 1);
  expect(service(ms, 'payment').instances).toBe(start + 1);
  for (let i = 0; i < 10; i++) ms.scale('payment', -1);
  expect(service(ms, 'payment').instances).toBe(MICROSERVICES.minInstances);
  const before = service(ms, 'payment');
  ms.restart('payment');
  const after = service(ms, 'payment');
  expect(after.status).toBe('healthy');
  expect([after.responseTime, after.errorRate, after.cpu, after.memory]).not.toEqual([
    before.responseTime,
    before.errorRate,
    before.cpu,
    before.memory,
  ]);
  expect(after.errorRate).toBeLessThanOrEqual(1);
});

it('makes a call every 2 s with status 200, 404 or 500, keeping the last 50', () => {
  const { scheduler, ms } = setup();
  ms.start();
  scheduler.advance(MICROSERVICES.callEveryMs - 1);
  expect(ms.state.calls).toEqual([]);
  scheduler.advance(1);
  expect(ms.state.calls).toHaveLength(1);
  scheduler.advance(200 * MICROSERVICES.callEveryMs);
  expect(ms.state.calls).toHaveLength(MICROSERVICES.callsKept);
  ms.stop();
  expect(scheduler.pending).toBe(0);
  // over many calls: mostly 200, some 404, and 500 as often as the callee's error rate says
  const statuses = new Map<number, number>();
  for (let i = 0; i < 5000; i++) {
    ms.call();
    const status = ms.state.calls[0]!.status;
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  expect([...statuses.keys()].sort()).toEqual([200, 404, 500]);
  expect(statuses.get(200)! / 5000).toBeGreaterThan(0.85);
});

it('alerts on services not healthy or above 2 % errors, and flags slow (> 200 ms) and failing (> 3 %) ones', () => {
  const { ms } = setup();
  expect(serviceAlerts(ms.state.services).map((alert) => alert.message)).toEqual([
    'Payment Service is degraded',
    'Payment Service error rate is 4.8%',
  ]);
  expect(ms.state.services.filter(isSlow).map((s) => s.id)).toEqual(['payment']);
  expect(ms.state.services.filter(isFailing).map((s) => s.id)).toEqual(['payment']);
  expect(isSlow({ responseTime: 200 })).toBe(false);
  expect(isFailing({ errorRate: 3 })).toBe(false);
  ms.restart('payment');
  expect(serviceAlerts(ms.state.services)).toEqual([]);
});
