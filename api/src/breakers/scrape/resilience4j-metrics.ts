import {
  AGENT_PROTOCOL_LIMITS,
  RESILIENCE4J_CALL_KINDS,
  RESILIENCE4J_METRICS,
  RESILIENCE4J_STATE_WORDS,
  type BreakerStateName,
  type Resilience4jCallKind,
  type Resilience4jOverride,
  type Resilience4jState,
} from '@cbh/contracts';
import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format';

/*
 * Reads the circuit breakers out of a Java service's Prometheus endpoint, in resilience4j's words
 * (RESILIENCE4J_METRICS in @cbh/contracts). Every series carries `name` (the breaker), most a `kind`, and whatever
 * common tags the service adds (`application`, `instance`…).
 *
 * Names across resilience4j versions, all read here:
 * - calls that ran: the timer resilience4j_circuitbreaker_calls_seconds{kind=successful|failed|ignored} since 0.15;
 * - calls refused: resilience4j_circuitbreaker_not_permitted_calls_total{kind=not_permitted} since 1.6,
 *   resilience4j_circuitbreakernot_permitted_calls_total in 1.5.0 (its default name lacked the dot), and
 *   resilience4j_circuitbreaker_calls_total{kind=not_permitted} before, a counter beside the timer of the same name;
 * - resilience4j_circuitbreaker_slow_calls and _slow_call_rate since 1.1, the metrics_only state since 1.3;
 * - resilience4j_circuitbreaker_max_buffered_calls before 1.0 only.
 */

const R = RESILIENCE4J_METRICS;

/** The series read; every other one in the exposition is ignored. */
export const RESILIENCE4J_METRIC_NAMES = {
  state: R.state,
  failureRate: R.failureRate,
  slowCallRate: R.slowCallRate,
  bufferedCalls: R.bufferedCalls,
  maxBufferedCalls: R.maxBufferedCalls,
  slowCalls: R.slowCalls,
  callsCount: `${R.calls}_count`,
  callsSum: `${R.calls}_sum`,
  callsMax: R.callsMax,
  callsCounter: R.callsCounter,
  notPermittedCalls: R.notPermittedCalls,
  notPermittedCalls150: 'resilience4j_circuitbreakernot_permitted_calls_total',
} as const;

const M = RESILIENCE4J_METRIC_NAMES;
const KNOWN = new Set<string>(Object.values(M));

/**
 * Breakers read from one exposition at most, as many as an agent may report for one instance; past it the
 * breakers first by name are kept, so that the same ones are kept scrape after scrape.
 */
export const MAX_SCRAPED_BREAKERS = AGENT_PROTOCOL_LIMITS.breakersPerInstance;

/** The overrides a scraped breaker can show. */
export type ScrapedOverride = Resilience4jOverride;

const STATE_WORDS = RESILIENCE4J_STATE_WORDS;

export const CALL_KINDS = RESILIENCE4J_CALL_KINDS;
export type CallKind = Resilience4jCallKind;

/** One kind of call's timer, cumulative since the service started. */
export interface ScrapedCalls {
  count: number;
  sumSeconds: number;
  /** Micrometer's decaying max: the slowest call of the last couple of minutes (its distribution expiry), 0 when none. */
  maxSeconds: number;
}

export interface ScrapedBreaker {
  name: string;
  state: BreakerStateName;
  override: ScrapedOverride;
  /** The state label as resilience4j wrote it. */
  resilience4jState: Resilience4jState;
  /** Percent; null while the window holds fewer calls than the minimum (resilience4j writes -1) or when unreadable. */
  failureRate: number | null;
  slowCallRate: number | null;
  /** Calls in the sliding window, successful and failed. */
  bufferedCalls: number;
  /** The ring buffer's size, which resilience4j exposed before 1.0 only. */
  maxBufferedCalls: number | null;
  /** Slow calls in the sliding window, successful and failed (a gauge, not a counter). */
  slowCalls: number;
  /** Cumulative since the service started, as are `calls`. */
  notPermittedCalls: number;
  calls: Record<CallKind, ScrapedCalls>;
  /**
   * How many sets of other labels (application, instance…) the breaker's series came with: above 1 when several
   * applications behind one endpoint have a breaker of that name. Their counters are summed; the state is the first
   * one read, and the gauges (rates, buffered and slow calls) are those of the same set.
   */
  labelSets: number;
}

export interface Resilience4jScrape {
  breakers: ScrapedBreaker[];
  /** More breakers than MAX_SCRAPED_BREAKERS were exposed; those past it were left out. */
  truncated: boolean;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const QUANTILE_LABEL = /[{,]\s*quantile\s*=/;
/** The labels that say which breaker and which of its series; every other label only says where it runs. */
const OWN_LABELS = new Set(['name', 'kind', 'state']);

class NotPrometheusText extends Error {
  constructor(reason: string) {
    super(`not Prometheus text format: ${reason}`);
  }
}

/** A Prometheus float as the text format writes it (Go's ParseFloat words: NaN, +Inf, -Inf). */
function toNumber(text: string | undefined, where: string): number {
  if (text === undefined) throw new NotPrometheusText(`${where} has no value`);
  if (FLOAT.test(text)) return Number(text);
  const word = text.toLowerCase();
  if (word === 'nan') return Number.NaN;
  if (word === '+inf' || word === 'inf') return Number.POSITIVE_INFINITY;
  if (word === '-inf') return Number.NEGATIVE_INFINITY;
  throw new NotPrometheusText(`${where} has the value ${JSON.stringify(text.slice(0, 40))}, not a number`);
}

/**
 * The text as the parser should see it. Left out, as nothing here reads them and the parser mishandles them:
 * - comments other than TYPE lines: Micrometer writes "# HELP <name>  " for a meter without description (a blank
 *   help), which the parser trims and then refuses; OpenMetrics' "# EOF" and "# UNIT" mean nothing to it either;
 * - a summary's quantiles and a histogram's buckets: as soon as one sample carries quantile or le, the parser folds
 *   the family into one unlabelled entry and drops the _count and _sum of every labelled series, so a service that
 *   publishes percentiles of the calls timer would lose them all.
 * Refused here: a sample line that does not start with a metric name, which the parser drops without a word (a
 * JSON body would read as no metrics at all). And the text ends with a line break: the parser loses the last line
 * when none follows it.
 */
function forParser(text: string): string {
  const kept: string[] = [];
  text.split('\n').forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === '') return;
    if (trimmed.startsWith('#')) {
      if (/^# TYPE\s/.test(trimmed)) kept.push(trimmed);
      return;
    }
    if (!/^[a-zA-Z_:]/.test(trimmed)) throw new NotPrometheusText(`line ${index + 1} does not start with a metric name`);
    const name = /^[^\s{]*/.exec(trimmed)?.[0] ?? '';
    if (name.endsWith('_bucket') || QUANTILE_LABEL.test(trimmed)) return;
    kept.push(trimmed);
  });
  kept.push('');
  return kept.join('\n');
}

interface Series {
  metric: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Every sample read as one series of its own full name (a summary's count as <name>_count…); checks the whole
 * exposition, the series not read included. Quantiles and buckets never reach here (forParser).
 */
function seriesOf(families: PrometheusFamily[]): Series[] {
  const series: Series[] = [];
  for (const family of families) {
    if (!METRIC_NAME.test(family.name)) throw new NotPrometheusText(`${JSON.stringify(family.name.slice(0, 80))} is not a metric name`);
    for (const sample of family.metrics) {
      const labels = sample.labels ?? {};
      for (const label of Object.keys(labels)) {
        if (!LABEL_NAME.test(label)) throw new NotPrometheusText(`${family.name} has a label named ${JSON.stringify(label.slice(0, 80))}`);
      }
      const fields = [
        ['value', family.name],
        ['count', `${family.name}_count`],
        ['sum', `${family.name}_sum`],
      ] as const;
      let read = false;
      for (const [field, metric] of fields) {
        if (!(field in sample)) continue;
        read = true;
        const value = toNumber(sample[field], metric);
        if (KNOWN.has(metric)) series.push({ metric, labels, value });
      }
      if (!read) throw new NotPrometheusText(`${family.name} has no value`);
    }
  }
  return series;
}

function emptyCalls(): Record<CallKind, ScrapedCalls> {
  return {
    successful: { count: 0, sumSeconds: 0, maxSeconds: 0 },
    failed: { count: 0, sumSeconds: 0, maxSeconds: 0 },
    ignored: { count: 0, sumSeconds: 0, maxSeconds: 0 },
  };
}

/** What one breaker's series add up to while they are read. */
class BreakerTally {
  /** The gauges of each set of other labels, by metric. */
  private readonly gauges = new Map<string, Map<string, number>>();
  /** The state shown, and the set of other labels whose state series it came from. */
  private shown: { state: Resilience4jState; key: string } | null = null;
  private readonly timerKinds = new Set<CallKind>();
  private readonly timers = emptyCalls();
  private readonly counters = emptyCalls();
  private notPermitted = 0;

  constructor(readonly name: string) {}

  add(series: Series, key: string) {
    let gauges = this.gauges.get(key);
    if (!gauges) this.gauges.set(key, (gauges = new Map()));
    const { metric, value } = series;
    const kind = series.labels.kind;
    if (metric === M.state) {
      const state = series.labels.state ?? '';
      if (value === 1 && this.shown === null && Object.hasOwn(STATE_WORDS, state)) this.shown = { state: state as Resilience4jState, key };
      return;
    }
    // NaN is what a Micrometer gauge reads once its object is gone, and no figure here can be infinite
    if (!Number.isFinite(value)) return;
    switch (metric) {
      case M.failureRate:
      case M.slowCallRate:
      case M.bufferedCalls:
      case M.slowCalls:
      case M.maxBufferedCalls:
        // buffered and slow calls come one series per kind (successful, failed): the breaker's figure is their sum
        gauges.set(metric, (gauges.get(metric) ?? 0) + value);
        return;
      case M.callsCount:
      case M.callsSum:
      case M.callsMax: {
        if (!isCallKind(kind)) return;
        const timer = this.timers[kind];
        if (metric === M.callsMax) timer.maxSeconds = Math.max(timer.maxSeconds, value);
        else if (metric === M.callsSum) timer.sumSeconds += value;
        else {
          timer.count += value;
          this.timerKinds.add(kind);
        }
        return;
      }
      case M.callsCounter:
        if (kind === 'not_permitted') this.notPermitted += value;
        else if (isCallKind(kind)) this.counters[kind].count += value;
        return;
      case M.notPermittedCalls:
      case M.notPermittedCalls150:
        this.notPermitted += value;
        return;
    }
  }

  /**
   * The breaker, once a state series read 1. Where several sets of other labels carry the name, the counters are
   * summed over all of them and the gauges are those of the set whose state is shown, so that state, rates and
   * window describe the same application.
   */
  breaker(): ScrapedBreaker | null {
    if (this.shown === null) return null;
    const gauges = this.gauges.get(this.shown.key) ?? new Map<string, number>();
    const rate = (metric: string) => {
      const value = gauges.get(metric);
      // resilience4j writes -1 until the window holds its minimum number of calls
      return value === undefined || value < 0 ? null : value;
    };
    const calls = emptyCalls();
    for (const kind of CALL_KINDS) {
      // the timer where there is one; a bare counter of the calls otherwise
      calls[kind] = this.timerKinds.has(kind)
        ? { ...this.timers[kind] }
        : { ...this.counters[kind], maxSeconds: this.timers[kind].maxSeconds };
    }
    return {
      name: this.name,
      ...STATE_WORDS[this.shown.state],
      resilience4jState: this.shown.state,
      failureRate: rate(M.failureRate),
      slowCallRate: rate(M.slowCallRate),
      bufferedCalls: gauges.get(M.bufferedCalls) ?? 0,
      maxBufferedCalls: gauges.get(M.maxBufferedCalls) ?? null,
      slowCalls: gauges.get(M.slowCalls) ?? 0,
      notPermittedCalls: this.notPermitted,
      calls,
      labelSets: this.gauges.size,
    };
  }
}

function isCallKind(kind: string | undefined): kind is CallKind {
  return kind === 'successful' || kind === 'failed' || kind === 'ignored';
}

/** The labels other than name, kind and state, as one key. */
function otherLabelsKey(labels: Record<string, string>): string {
  const entries = Object.entries(labels)
    .filter(([label]) => !OWN_LABELS.has(label))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

/**
 * The circuit breakers of one Prometheus text exposition, one per `name` label, sorted by name. A breaker counts
 * once one of its state series reads 1; series of names without one are left out, as are names the hub cannot
 * store (empty, or longer than AGENT_PROTOCOL_LIMITS.nameLength). Throws `not Prometheus text format: …` for text
 * that is not the format (an HTML login page, JSON, a body cut off inside a line).
 */
export function readResilience4jMetrics(text: string): Resilience4jScrape {
  const prepared = forParser(text);
  let families: PrometheusFamily[];
  try {
    families = parsePrometheusTextFormat(prepared);
  } catch (error) {
    throw new NotPrometheusText(error instanceof Error ? error.message : String(error));
  }
  const tallies = new Map<string, BreakerTally>();
  for (const series of seriesOf(families)) {
    const name = series.labels.name;
    if (!name || name.length > AGENT_PROTOCOL_LIMITS.nameLength) continue;
    let tally = tallies.get(name);
    if (!tally) tallies.set(name, (tally = new BreakerTally(name)));
    tally.add(series, otherLabelsKey(series.labels));
  }
  const breakers = [...tallies.values()]
    .map((tally) => tally.breaker())
    .filter((breaker) => breaker !== null)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { breakers: breakers.slice(0, MAX_SCRAPED_BREAKERS), truncated: breakers.length > MAX_SCRAPED_BREAKERS };
}

/** One breaker's calls between two scrapes, in the words of an agent's reporting window. */
export interface ScrapedWindow {
  successes: number;
  failures: number;
  /** Calls that failed with an exception the breaker ignores: neither successes nor failures to resilience4j. */
  ignored: number;
  /** Calls the breaker refused (not permitted). */
  rejections: number;
  /**
   * Slow calls among the successes and failures, estimated: resilience4j exposes only how many of the sliding
   * window's calls are slow, not a counter, so the period's calls get the window's share of slow calls.
   */
  slowCalls: number;
  /** The slowest recent call (Micrometer's decaying max, which may predate the period), 0 when no call ran. */
  longestCallMs: number;
  /** null when no call ran. */
  meanMs: number | null;
  /** All calls offered to the breaker, refused ones included, per second of the period. */
  requestsPerSecond: number;
}

/** A counter's increase, as Prometheus's rate() takes it: one that went down was reset (the service restarted). */
function increase(previous: number, current: number): number {
  return current >= previous ? current - previous : current;
}

const roundMicros = (ms: number) => Math.round(ms * 1000) / 1000;

/**
 * The calls of the period between two consecutive scrapes of one breaker, from their cumulative counters. The
 * first scrape of a breaker (no previous) only sets the baseline, as rate() needs two samples: its window is empty.
 */
export function periodWindow(previous: ScrapedBreaker | undefined, current: ScrapedBreaker, elapsedMs: number): ScrapedWindow {
  const ran = { count: 0, sumSeconds: 0 };
  const counts = { successful: 0, failed: 0, ignored: 0 };
  let rejections = 0;
  if (previous) {
    for (const kind of CALL_KINDS) {
      const before = previous.calls[kind];
      const now = current.calls[kind];
      // a count and its sum restart together: a reset seen on either takes both from zero
      const reset = now.count < before.count || now.sumSeconds < before.sumSeconds;
      counts[kind] = reset ? now.count : now.count - before.count;
      ran.count += counts[kind];
      ran.sumSeconds += reset ? now.sumSeconds : now.sumSeconds - before.sumSeconds;
    }
    rejections = increase(previous.notPermittedCalls, current.notPermittedCalls);
  }
  const outcomes = counts.successful + counts.failed;
  const slowShare = current.bufferedCalls > 0 ? Math.min(1, current.slowCalls / current.bufferedCalls) : 0;
  const longest = Math.max(...CALL_KINDS.map((kind) => current.calls[kind].maxSeconds));
  return {
    successes: counts.successful,
    failures: counts.failed,
    ignored: counts.ignored,
    rejections,
    slowCalls: Math.round(outcomes * slowShare),
    longestCallMs: ran.count > 0 ? roundMicros(longest * 1000) : 0,
    meanMs: ran.count > 0 ? roundMicros((ran.sumSeconds / ran.count) * 1000) : null,
    requestsPerSecond: elapsedMs > 0 ? (ran.count + rejections) / (elapsedMs / 1000) : 0,
  };
}
