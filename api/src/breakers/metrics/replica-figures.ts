import { OUTCOMES, type CallOutcome, type WindowSnapshot } from '@cbh/breaker';
import { BREAKER_OVERRIDES, BREAKER_STATES, type BreakerOverride, type BreakerStateName } from '@cbh/contracts';

/** One breaker as one replica sees it: its state, its rolling window and its calls since the replica started. */
export interface BreakerFigures {
  configId: number;
  state: BreakerStateName;
  override: BreakerOverride;
  /** ms since the epoch, or null */
  lastTransitionAt: number | null;
  window: WindowSnapshot;
  totals: Record<CallOutcome, number>;
}

/**
 * One NOTIFY's worth of a replica's figures. A replica sends all its breakers every second as parts 0…n-1 of one
 * round (in order, on one connection); a receiver takes the round once its last part arrives. A round with no
 * breaker is still sent: it says the replica is alive.
 */
export interface FiguresPart {
  round: number;
  part: number;
  parts: number;
  /** Compact rows, see encode(). */
  rows: unknown[][];
}

/** NOTIFY refuses payloads of 8,000 bytes or more; this leaves room for the envelope. */
export const PART_BYTES = 7000;

/** [id, state, override, lastTransitionAt, counts…5, max, latencySum, totals…5, histogram pairs flattened] */
function encode(figures: BreakerFigures): unknown[] {
  return [
    figures.configId,
    BREAKER_STATES.indexOf(figures.state),
    BREAKER_OVERRIDES.indexOf(figures.override),
    figures.lastTransitionAt,
    figures.window.counts,
    Math.round(figures.window.max * 10) / 10,
    Math.round(figures.window.latencySum),
    OUTCOMES.map((outcome) => figures.totals[outcome]),
    figures.window.histogram.flat(),
  ];
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const counts = (value: unknown): number[] | null =>
  Array.isArray(value) && value.length === OUTCOMES.length && value.every(isCount) ? value : null;

/** A row another replica sent, or null when it is not one (a peer is trusted, but a bad row must not break the sum). */
function decode(row: unknown[]): BreakerFigures | null {
  const [configId, state, override, lastTransitionAt, windowCounts, max, latencySum, totals, histogram] = row;
  const stateName = BREAKER_STATES[state as number];
  const overrideName = BREAKER_OVERRIDES[override as number];
  const window = counts(windowCounts);
  const total = counts(totals);
  if (!Number.isInteger(configId) || !stateName || !overrideName || !window || !total || !isCount(max) || !isCount(latencySum)) return null;
  if (lastTransitionAt !== null && !isCount(lastTransitionAt)) return null;
  if (!Array.isArray(histogram) || histogram.length % 2 !== 0 || !histogram.every(isCount)) return null;
  const pairs: [number, number][] = [];
  for (let i = 0; i < histogram.length; i += 2) pairs.push([histogram[i] as number, histogram[i + 1] as number]);
  return {
    configId: configId as number,
    state: stateName,
    override: overrideName,
    lastTransitionAt,
    window: { counts: window, histogram: pairs, max, latencySum },
    totals: Object.fromEntries(OUTCOMES.map((outcome, i) => [outcome, total[i]!])) as Record<CallOutcome, number>,
  };
}

/** Splits a replica's figures into parts that each fit one NOTIFY. */
export function toParts(round: number, figures: readonly BreakerFigures[], maxBytes = PART_BYTES): FiguresPart[] {
  const groups: unknown[][][] = [[]];
  let size = 0;
  for (const entry of figures) {
    const row = encode(entry);
    const bytes = JSON.stringify(row).length + 1;
    if (size + bytes > maxBytes && groups[groups.length - 1]!.length > 0) {
      groups.push([]);
      size = 0;
    }
    groups[groups.length - 1]!.push(row);
    size += bytes;
  }
  return groups.map((rows, part) => ({ round, part, parts: groups.length, rows }));
}

/** Reassembles each peer's rounds; a peer's figures are those of its last complete round. */
export class PeerFigures {
  private readonly peers = new Map<
    string,
    { at: number; seen: number; figures: Map<number, BreakerFigures>; building?: Map<number, BreakerFigures>; round?: number }
  >();

  /** Takes one part from a peer; returns false for something that is not a part. */
  receive(origin: string, value: unknown, now: number): boolean {
    const part = value as FiguresPart;
    if (
      !part ||
      !Number.isInteger(part.round) ||
      !Number.isInteger(part.part) ||
      !Number.isInteger(part.parts) ||
      !Array.isArray(part.rows)
    ) {
      return false;
    }
    let peer = this.peers.get(origin);
    if (!peer) this.peers.set(origin, (peer = { at: Number.NEGATIVE_INFINITY, seen: now, figures: new Map() }));
    peer.seen = now;
    if (part.part === 0) {
      peer.building = new Map();
      peer.round = part.round;
    }
    // a part of a round whose start was missed (this replica started listening mid-round) waits for the next
    if (!peer.building || peer.round !== part.round) return true;
    for (const row of part.rows) {
      const figures = Array.isArray(row) ? decode(row) : null;
      if (figures) peer.building.set(figures.configId, figures);
    }
    if (part.part === part.parts - 1) {
      peer.figures = peer.building;
      peer.building = undefined;
      peer.at = now;
    }
    return true;
  }

  /** The live peers (a complete round within staleMs), each with its breakers' figures. */
  live(now: number, staleMs: number): { id: string; figures: Map<number, BreakerFigures> }[] {
    const live: { id: string; figures: Map<number, BreakerFigures> }[] = [];
    for (const [id, peer] of this.peers) {
      if (now - peer.at <= staleMs) live.push({ id, figures: peer.figures });
      else if (now - peer.seen > 10 * staleMs) this.peers.delete(id); // long gone: forget it
    }
    return live;
  }
}
