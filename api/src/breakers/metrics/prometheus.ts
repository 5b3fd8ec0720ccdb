import { latencyBinEdges, type WindowSnapshot } from '@cbh/breaker';
import {
  NOT_PERMITTED_KIND,
  RESILIENCE4J_CALL_KINDS,
  RESILIENCE4J_METRICS as R,
  RESILIENCE4J_STATES,
  resilience4jStateOf,
  type BreakerOverride,
  type BreakerSettings,
  type BreakerStateName,
  type BreakerStats,
} from '@cbh/contracts';
import { TOTALS_BUCKETS_AT, type InstanceTotals } from '../fleet/instance-periods';
import type { CallCounters } from './call-counters';
import { Family, type Labels } from '../../platform';

/*
 * The breakers at /metrics, in resilience4j's words (RESILIENCE4J_METRICS), so that resilience4j's Grafana dashboard
 * and alerts work on the hub as they are. One scrape, one truth: Prometheus scrapes every replica, and each series
 * is written by one replica only, so that summing over the replicas (sum by (name)) counts everything once:
 * - the hub's own breakers run in every replica, each replica's engine with its own state and calls: each replica
 *   writes its own engine's series (labels `name`, `state`/`kind`), as each instance of a Java service does;
 * - an agent's breaker runs in its service's instances, which report to any replica and are kept in the database, the
 *   same for every replica: the one replica that holds the cluster role `fleet.figures` (the one that merges their rows) writes them (labels
 *   `name`, `service`, `instance` of the service instance), every live instance once;
 * - a scraped resilience4j target is not written again: that service exposes these very series itself, and
 *   Prometheus should scrape it directly (writing them again would count its breakers twice).
 * The cluster's view as the wall shows it, the same on every replica, has names of its own (cbh_cluster_…): for a
 * scraper that reaches one replica only. Read those with max(), never sum().
 */

/** One hub breaker as this replica's engine has it. */
export interface OwnBreaker {
  name: string;
  settings: BreakerSettings;
  state: BreakerStateName;
  override: BreakerOverride;
  callsInFlight: number;
  /** This replica's rolling window of the breaker (METRICS_WINDOW_SECONDS). */
  window: WindowSnapshot;
  /** Its calls on this replica since it started, when it had any. */
  counters: CallCounters | undefined;
}

/** One live instance of an agent's breaker. */
export interface AgentInstance {
  service: string;
  name: string;
  instance: string;
  state: BreakerStateName;
  override: BreakerOverride;
  /** The instance's calls over the rolling window. */
  window: WindowSnapshot;
  totals: InstanceTotals;
}

/** One breaker as the cluster shows it: the wall's figures. */
export interface ClusterBreaker {
  name: string;
  service: string | null;
  stats: BreakerStats;
}

export interface BreakerSeriesInput {
  own: readonly OwnBreaker[];
  /** The agents' breakers' instances, on the replica that writes them; empty elsewhere. */
  agents: readonly AgentInstance[] | null;
  /** Instances left out past MAX_AGENT_INSTANCES, on the replica that writes them. */
  agentsLeftOut: number;
  cluster: readonly ClusterBreaker[];
  replicas: number;
  now: number;
}

/** At most this many agent breaker instances are written (about 30 series each), the first by service, name and instance. */
export const MAX_AGENT_INSTANCES = 2000;

/** The hub's rules for how many calls a window needs before its rates count (resilience4j's minimumNumberOfCalls). */
const minimumCallsOf = (settings: BreakerSettings) => (settings.type === 'adaptive' ? (settings.minimumCalls ?? 10) : 1);
/** A call slower than this is slow: the adaptive breaker's setting, 1 s (its default) for the others. */
const slowCallMsOf = (settings: BreakerSettings) => settings.slowCallDuration ?? 1000;
const percent = (part: number, whole: number) => Math.round((10_000 * part) / whole) / 100;

/** successful and failed calls of a window (a timeout is a failed call). */
function windowCalls(window: WindowSnapshot) {
  const successful = window.counts[0] ?? 0;
  const failed = (window.counts[1] ?? 0) + (window.counts[2] ?? 0);
  return { successful, failed, total: successful + failed };
}

/** Calls of the window slower than `slowMs`, from its histogram (a bin counts when all of it is at or above). */
function slowCalls(window: WindowSnapshot, slowMs: number): number {
  return window.histogram.reduce((sum, [bin, n]) => (latencyBinEdges(bin).lower >= slowMs ? sum + n : sum), 0);
}

/**
 * The calls the breaker's state decides on, as resilience4j's ring buffer sizes were: the trial calls while half-open,
 * otherwise the adaptive breaker's minimum of calls, or the consecutive failures that open a simple or bulkhead one.
 */
function maxBufferedCalls(breaker: OwnBreaker): number {
  if (breaker.state === 'HALF_OPEN' && breaker.override === 'none') return breaker.settings.successThreshold;
  return breaker.settings.type === 'adaptive' ? minimumCallsOf(breaker.settings) : breaker.settings.failureThreshold;
}

/** Each of resilience4j's six states, 1 for the breaker's. */
function stateSamples(family: Family, labels: Labels, state: BreakerStateName, override: BreakerOverride) {
  const current = resilience4jStateOf(state, override);
  for (const name of RESILIENCE4J_STATES) family.sample({ ...labels, state: name }, name === current ? 1 : 0);
}

/** The resilience4j families, filled with this replica's own breakers and, on the writer, the agents' instances. */
function resilience4jFamilies(own: readonly OwnBreaker[], agents: readonly AgentInstance[], now: number): Family[] {
  const state = new Family(R.state, 'gauge', 'The states of the circuit breaker');
  const failureRate = new Family(R.failureRate, 'gauge', 'The failure rate of the circuit breaker (-1 below the minimum of calls)');
  const slowCallRate = new Family(R.slowCallRate, 'gauge', 'The slow call rate of the circuit breaker (-1 below the minimum of calls)');
  const buffered = new Family(R.bufferedCalls, 'gauge', 'The calls in the rolling window of the circuit breaker, by kind');
  const maxBuffered = new Family(R.maxBufferedCalls, 'gauge', 'The calls the state of the circuit breaker decides on');
  const calls = new Family(R.calls, 'summary', 'The calls that went through the circuit breaker, by kind');
  const callsMax = new Family(R.callsMax, 'gauge', 'The slowest call of the last minute or two, by kind');
  const callsTotal = new Family(R.callsCounter, 'counter', 'The calls that went through the circuit breaker, by kind');
  const notPermitted = new Family(R.notPermittedCalls, 'counter', 'Total number of not permitted calls');
  const available = new Family(R.bulkheadAvailableCalls, 'gauge', 'The number of available permissions');
  const maxAllowed = new Family(R.bulkheadMaxAllowedCalls, 'gauge', 'The maximum number of available permissions');
  const bulkheadRejected = new Family('cbh_bulkhead_rejected_calls_total', 'counter', 'Calls refused because the bulkhead was full');
  const duration = new Family(
    'cbh_circuitbreaker_call_duration_seconds',
    'histogram',
    'How long the calls through the circuit breaker took, all kinds together',
  );

  const rates = (labels: Labels, window: WindowSnapshot, minimum: number, slowMs: number | null) => {
    const { successful, failed, total } = windowCalls(window);
    failureRate.sample(labels, total >= minimum && total > 0 ? percent(failed, total) : -1);
    if (slowMs !== null) slowCallRate.sample(labels, total >= minimum && total > 0 ? percent(slowCalls(window, slowMs), total) : -1);
    buffered.sample({ ...labels, kind: 'successful' }, successful);
    buffered.sample({ ...labels, kind: 'failed' }, failed);
  };
  const timer = (labels: Labels, counts: readonly number[], sumsMs: readonly number[], maxMs: (kind: number) => number) => {
    RESILIENCE4J_CALL_KINDS.forEach((kind, i) => {
      const kindLabels = { ...labels, kind };
      calls.sample(kindLabels, counts[i]!, '_count').sample(kindLabels, sumsMs[i]! / 1000, '_sum');
      callsMax.sample(kindLabels, maxMs(i) / 1000);
      callsTotal.sample(kindLabels, counts[i]!);
    });
  };

  for (const breaker of own) {
    const labels = { name: breaker.name };
    const counters = breaker.counters;
    stateSamples(state, labels, breaker.state, breaker.override);
    rates(labels, breaker.window, minimumCallsOf(breaker.settings), slowCallMsOf(breaker.settings));
    maxBuffered.sample(labels, maxBufferedCalls(breaker));
    timer(labels, counters?.count ?? [0, 0, 0], counters?.sumMs ?? [0, 0, 0], (kind) => counters?.maxMs(kind, now) ?? 0);
    notPermitted.sample({ ...labels, kind: NOT_PERMITTED_KIND }, counters?.notPermitted ?? 0);
    duration.histogram(labels, counters?.buckets ?? [], (counters?.sumMs ?? [0]).reduce((a, b) => a + b, 0) / 1000);
    if (breaker.settings.type === 'bulkhead') {
      const max = breaker.settings.maxConcurrentCalls ?? 10;
      available.sample(labels, Math.max(0, max - breaker.callsInFlight));
      maxAllowed.sample(labels, max);
      bulkheadRejected.sample(labels, counters?.bulkheadRejected ?? 0);
    }
  }

  for (const agent of agents) {
    const labels = { name: agent.name, service: agent.service, instance: agent.instance };
    const [successes = 0, failures = 0, timeouts = 0, rejections = 0, latencySumMs = 0] = agent.totals;
    const counts = [successes, failures + timeouts, 0];
    const ran = counts[0]! + counts[1]!;
    // an agent reports one latency histogram for all its calls: the sum goes to each kind in proportion to its calls
    const sums = counts.map((count) => (ran > 0 ? (latencySumMs * count) / ran : 0));
    const inWindow = windowCalls(agent.window);
    const windowMax = (kind: number) => ((kind === 0 ? inWindow.successful : kind === 1 ? inWindow.failed : 0) > 0 ? agent.window.max : 0);
    stateSamples(state, labels, agent.state, agent.override);
    // an agent's minimum of calls and slow-call duration are its library's settings: any call counts, and no slow rate
    rates(labels, agent.window, 1, null);
    timer(labels, counts, sums, windowMax);
    notPermitted.sample({ ...labels, kind: NOT_PERMITTED_KIND }, rejections);
    duration.histogram(labels, agent.totals.slice(TOTALS_BUCKETS_AT), latencySumMs / 1000);
  }

  return [
    state,
    failureRate,
    slowCallRate,
    buffered,
    maxBuffered,
    calls,
    callsMax,
    callsTotal,
    notPermitted,
    available,
    maxAllowed,
    bulkheadRejected,
    duration,
  ];
}

/** The cluster's view, the same on every replica: for a scraper that reaches one replica only (read with max()). */
function clusterFamilies(cluster: readonly ClusterBreaker[], replicas: number): Family[] {
  const live = new Family('cbh_cluster_replicas', 'gauge', 'Live API replicas, as this replica sees them (itself included)');
  live.sample({}, replicas);
  const state = new Family(
    'cbh_cluster_circuitbreaker_state',
    'gauge',
    "The breaker's state as the cluster shows it (the most cautious replica's or instance's)",
  );
  const errors = new Family(
    'cbh_cluster_circuitbreaker_error_percentage',
    'gauge',
    'Failed and refused calls of the last 10 s over the cluster, in percent',
  );
  const rate = new Family('cbh_cluster_circuitbreaker_calls_per_second', 'gauge', 'Calls per second over the last 10 s, over the cluster');
  for (const { name, service, stats } of cluster) {
    const labels: Labels = service === null ? { name } : { name, service };
    stateSamples(state, labels, stats.state, stats.override);
    errors.sample(labels, stats.errorPercentage);
    rate.sample(labels, stats.requestsPerSecond);
  }
  return [live, state, errors, rate];
}

/** The breakers' families, ready for exposition(). */
export function breakerFamilies(input: BreakerSeriesInput): Family[] {
  const writer = new Family('cbh_agent_series_writer', 'gauge', "1 on the replica that writes the agents' breakers, 0 on the others");
  writer.sample({}, input.agents === null ? 0 : 1);
  const families = [
    ...resilience4jFamilies(input.own, input.agents ?? [], input.now),
    ...clusterFamilies(input.cluster, input.replicas),
    writer,
  ];
  if (input.agents !== null) {
    families.push(
      new Family('cbh_agent_instances_left_out', 'gauge', `Agent breaker instances not written: past ${MAX_AGENT_INSTANCES}`).sample(
        {},
        input.agentsLeftOut,
      ),
    );
  }
  return families;
}
