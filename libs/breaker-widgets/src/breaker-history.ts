import { HISTORY_RANGES, type BreakerHistory, type BreakerStateName, type HistoryRange } from '@cbh/contracts';
import { liveCalls, STATE_LEVEL, type MetricsSample } from './metrics-history';

type Values = (number | null)[];

/** A move marked on the charts: when (seconds since the epoch) and the state it moved to. */
export interface ChartMark {
  at: number;
  to: BreakerStateName;
}

/** One breaker's past and live figures as the charts draw them, over the chosen range up to now. */
export interface HistorySeries {
  state: [number[], Values];
  /** Each state's span, oldest first: what the state chart colours. */
  spans: { from: number; to: number; state: BreakerStateName }[];
  errors: [number[], Values];
  throughput: [number[], Values];
  /** Live only: the hub stores no latency. */
  latency: [number[], Values, Values, Values];
  marks: ChartMark[];
  /** Stored steps and live samples in the range with at least one call. */
  busySteps: number;
}

const seconds = (iso: string) => Date.parse(iso) / 1000;

/**
 * Makes a chart's columns begin at the range's start (with no value there), so that every chart spans the same
 * times. Their end stays their last value, which the legend and the chart's text read.
 */
function startAt(start: number, times: number[], ...columns: Values[]) {
  if (times.length > 0 && times[0]! <= start) return;
  times.unshift(start);
  for (const column of columns) column.unshift(null);
}

/**
 * The stored steps of `history`, then the live samples that came after it, cut to the range before `now` (seconds):
 * an error % or a latency only where there were calls (null — "no traffic" — elsewhere, never 0 % or 0 ms), the state
 * from the journal's moves (the state before the range, else the first move's origin, else `current`).
 */
export function historySeries(
  history: BreakerHistory | undefined,
  samples: MetricsSample[],
  configId: number,
  range: HistoryRange,
  now: number,
  current: BreakerStateName,
): HistorySeries {
  const start = now - HISTORY_RANGES[range].seconds;
  const storedUntil = history ? seconds(history.to) : -Infinity;
  const at: number[] = [];
  const errors: Values = [];
  const throughput: Values = [];
  let busySteps = 0;
  for (const point of history?.points ?? []) {
    const time = seconds(point.at);
    if (time < start) continue;
    at.push(time);
    throughput.push(point.callsPerSecond);
    errors.push(point.errorPercentage);
    if (point.calls > 0) busySteps += 1;
  }

  const live = samples
    .filter((sample) => sample.at > storedUntil && sample.at >= start)
    .map((sample) => ({ at: sample.at, stats: sample.stats.find((entry) => entry.configId === configId) }));
  const latency: HistorySeries['latency'] = [[], [], [], []];
  for (const { at: time, stats } of live) {
    const busy = stats !== undefined && liveCalls(stats) > 0;
    if (busy) busySteps += 1;
    at.push(time);
    throughput.push(stats ? stats.requestsPerSecond : null);
    errors.push(busy ? stats.errorPercentage : null);
    latency[0].push(time);
    latency[1].push(busy ? stats.latency.p50 : null);
    latency[2].push(busy ? stats.latency.p90 : null);
    latency[3].push(busy ? stats.latency.p99 : null);
  }

  startAt(start, at, errors, throughput);
  startAt(start, ...latency);

  const moves = (history?.transitions ?? []).filter((move) => seconds(move.at) >= start);
  const marks = moves.map((move) => ({ at: seconds(move.at), to: move.to }));
  const changes: { at: number; state: BreakerStateName }[] = [
    { at: start, state: history?.stateBefore ?? moves[0]?.from ?? current },
    ...marks.map((mark) => ({ at: mark.at, state: mark.to })),
    ...live.flatMap(({ at: time, stats }) => (stats ? [{ at: time, state: stats.state }] : [])),
  ];
  changes.sort((a, b) => a.at - b.at);
  const spans = changes.map((change, index) => ({ from: change.at, to: changes[index + 1]?.at ?? now, state: change.state }));
  const stateTimes = [...changes.map((change) => change.at), now];
  const stateLevels = [...changes.map((change) => STATE_LEVEL[change.state]), STATE_LEVEL[changes.at(-1)!.state]];

  return {
    state: [stateTimes, stateLevels],
    spans,
    errors: [at, errors],
    throughput: [at, throughput],
    latency,
    marks,
    busySteps,
  };
}
