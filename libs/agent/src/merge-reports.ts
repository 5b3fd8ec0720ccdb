import {
  AGENT_PROTOCOL_LIMITS,
  type AgentBreakerReport,
  type AgentFaultsStatus,
  type AgentLatencyHistogram,
  type AgentReport,
  type AgentWindow,
} from '@cbh/contracts';

/** Latencies of both periods; an older histogram with other bounds is put in the newer bins by each bin's upper bound. */
function mergeHistograms(older: AgentLatencyHistogram, newer: AgentLatencyHistogram): AgentLatencyHistogram {
  const counts = [...newer.counts];
  const same = older.boundsMs.length === newer.boundsMs.length && older.boundsMs.every((bound, i) => bound === newer.boundsMs[i]);
  older.counts.forEach((count, i) => {
    let bin = i;
    if (!same) {
      const upper = older.boundsMs[i] ?? Infinity;
      bin = newer.boundsMs.findIndex((bound) => upper <= bound);
      if (bin === -1) bin = newer.boundsMs.length;
    }
    counts[bin] = (counts[bin] ?? 0) + count;
  });
  return { boundsMs: [...newer.boundsMs], counts };
}

function mergeWindows(older: AgentWindow, newer: AgentWindow): AgentWindow {
  const window: AgentWindow = {
    successes: older.successes + newer.successes,
    failures: older.failures + newer.failures,
    timeouts: older.timeouts + newer.timeouts,
    rejections: older.rejections + newer.rejections,
    latencyHistogram: mergeHistograms(older.latencyHistogram, newer.latencyHistogram),
    longestCallMs: Math.max(older.longestCallMs, newer.longestCallMs),
  };
  if (older.slowCalls !== undefined || newer.slowCalls !== undefined) window.slowCalls = (older.slowCalls ?? 0) + (newer.slowCalls ?? 0);
  return window;
}

/** The newer status, with the refusals of both (each once, its newer reason), so that none is lost in the merge. */
function mergeFaults(older: AgentFaultsStatus | undefined, newer: AgentFaultsStatus | undefined): AgentFaultsStatus | undefined {
  if (!newer || !older?.refused?.length) return newer;
  const refused = new Map([...older.refused, ...(newer.refused ?? [])].map(({ id, reason }) => [id, reason]));
  return { ...newer, refused: [...refused].slice(-AGENT_PROTOCOL_LIMITS.faultsPerInstance).map(([id, reason]) => ({ id, reason })) };
}

/**
 * One report for the periods of two: what a connection sends when the older one never reached the hub (covering both
 * periods' time). The newer
 * report's breakers, with their current state, override and settings, carry both windows (counts added, histograms
 * added bin by bin, the longest call) and both periods' transitions, the newest AGENT_PROTOCOL_LIMITS.transitionsPerReport
 * of them. A breaker unregistered since the older report is left out: the hub would take it for one still running.
 * The faults are the newer report's, with the refusals of both.
 */
export function mergeReports(older: AgentReport, newer: AgentReport): AgentReport {
  const before = new Map(older.breakers.map((breaker) => [breaker.name, breaker]));
  const breakers: AgentBreakerReport[] = newer.breakers.map((breaker) => {
    const old = before.get(breaker.name);
    if (!old) return { ...breaker, transitions: [...breaker.transitions] };
    return { ...breaker, window: mergeWindows(old.window, breaker.window), transitions: [...old.transitions, ...breaker.transitions] };
  });
  const all = breakers.flatMap((breaker) => breaker.transitions);
  const limit = AGENT_PROTOCOL_LIMITS.transitionsPerReport;
  if (all.length > limit) {
    // ISO 8601 times of one format sort as text; the oldest give way, as they do in the agent
    const kept = new Set(all.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).slice(-limit));
    for (const breaker of breakers) breaker.transitions = breaker.transitions.filter((transition) => kept.has(transition));
  }
  const periodMs = older.periodMs !== undefined && newer.periodMs !== undefined ? older.periodMs + newer.periodMs : newer.periodMs;
  const faults = mergeFaults(older.faults, newer.faults);
  return { ...newer, ...(periodMs !== undefined ? { periodMs } : {}), ...(faults ? { faults } : {}), breakers };
}
