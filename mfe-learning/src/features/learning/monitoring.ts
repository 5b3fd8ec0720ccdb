import type { BreakerStats, BreakerStateName } from '@cbh/contracts';

export interface MonitoringFigures {
  /** percent */
  successRate: number;
  /** ms */
  averageResponseTime: number;
  requestsPerMinute: number;
  failedCalls: number;
}

/** The signed-out panel's client-side simulation — random figures every 3 s, within these clamps, starting here. */
export const SIMULATION_INTERVAL_MS = 3000;
export const SIMULATION_LIMITS = {
  successRate: [90, 99.9],
  averageResponseTime: [50, 300],
  requestsPerMinute: [800, 2000],
  failedCalls: [0, 100],
} as const;
export const SIMULATION_START: MonitoringFigures = {
  successRate: 94.7,
  averageResponseTime: 142,
  requestsPerMinute: 1247,
  failedCalls: 23,
};

const clamp = (value: number, [min, max]: readonly [number, number]) => Math.min(max, Math.max(min, value));

/** One step of the simulation: a random walk of each figure, held within its clamp. */
export function nextSimulatedFigures(previous: MonitoringFigures, random: () => number = Math.random): MonitoringFigures {
  const L = SIMULATION_LIMITS;
  return {
    successRate: Math.round(10 * clamp(previous.successRate + (random() - 0.5) * 4, L.successRate)) / 10,
    averageResponseTime: Math.round(clamp(previous.averageResponseTime + (random() - 0.5) * 60, L.averageResponseTime)),
    requestsPerMinute: Math.round(clamp(previous.requestsPerMinute + (random() - 0.5) * 300, L.requestsPerMinute)),
    failedCalls: Math.round(clamp(previous.failedCalls + (random() - 0.5) * 20, L.failedCalls)),
  };
}

/** The simulation's state for its timeline: healthy above 95 %, recovering above 92 %, else open. */
export function simulatedState(figures: MonitoringFigures): BreakerStateName {
  if (figures.successRate >= 95) return 'CLOSED';
  if (figures.successRate >= 92) return 'HALF_OPEN';
  return 'OPEN';
}

/** The real figures of every breaker together, over the server's 10 s window. */
export function liveFigures(stats: BreakerStats[]): MonitoringFigures {
  let calls = 0;
  let succeeded = 0;
  let failed = 0;
  let timedCalls = 0;
  let latencyTotal = 0;
  let perSecond = 0;
  for (const entry of stats) {
    const ran = entry.successCount + entry.failureCount + entry.timeoutCount;
    calls += ran + entry.shortCircuitedCount + entry.bulkheadRejectedCount;
    succeeded += entry.successCount;
    failed += entry.failureCount + entry.timeoutCount;
    timedCalls += ran;
    latencyTotal += entry.latency.mean * ran;
    perSecond += entry.requestsPerSecond;
  }
  return {
    successRate: calls ? Math.round((1000 * succeeded) / calls) / 10 : 100,
    averageResponseTime: timedCalls ? Math.round(latencyTotal / timedCalls) : 0,
    requestsPerMinute: Math.round(perSecond * 60),
    failedCalls: failed,
  };
}

/** The system's state at a glance: OPEN if any breaker is open, else HALF_OPEN if any is, else CLOSED. */
export function worstState(stats: BreakerStats[]): BreakerStateName {
  if (stats.some((entry) => entry.state === 'OPEN')) return 'OPEN';
  if (stats.some((entry) => entry.state === 'HALF_OPEN')) return 'HALF_OPEN';
  return 'CLOSED';
}

export function countStates(stats: BreakerStats[] | undefined) {
  const counts = { CLOSED: 0, HALF_OPEN: 0, OPEN: 0 };
  for (const entry of stats ?? []) counts[entry.state]++;
  return counts;
}
