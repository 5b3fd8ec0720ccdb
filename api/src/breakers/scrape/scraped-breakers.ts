import { AGENT_PROTOCOL_LIMITS } from '@cbh/contracts';
import type { ScrapedBreaker } from './resilience4j-metrics';

/*
 * What a target may keep on the hub. Its breakers are its service's (the target's name), held to the limit an agent's
 * service has (AGENT_PROTOCOL_LIMITS.breakersPerService) across every scrape, not per scrape: a target that exposes new
 * names each time stops adding breakers there. A breaker the target stopped exposing ages out, so that the names it
 * rotated through do not hold the limit for ever, but only slowly: resilience4j registers a breaker on its first call,
 * so a service just restarted, or one whose breaker saw no call yet, exposes fewer than it has.
 */

/** A breaker leaves the hub once it is missing from this many good scrapes in a row (a failed scrape counts for nothing)… */
export const AGE_OUT_SCRAPES = 3;
/** …and this long since the first of them. */
export const AGE_OUT_MS = 60 * 60_000;

/** A known breaker the target no longer exposes: since the first good scrape it was missing from, and how many. */
export interface AbsentBreaker {
  /** ms since the epoch */
  since: number;
  scrapes: number;
}

/** By the breaker's name in lower case, as the hub keys names. */
export type AbsentBreakers = Record<string, AbsentBreaker>;

const key = (name: string) => name.toLowerCase();

/**
 * After a good scrape: which of the service's breakers (`known`) age out now, and what is remembered of the others
 * that were missing. A breaker exposed again is forgotten as absent.
 */
export function ageOut<T extends { name: string }>(
  known: readonly T[],
  exposed: readonly ScrapedBreaker[],
  before: AbsentBreakers | null,
  now: number,
): { agedOut: T[]; absent: AbsentBreakers } {
  const seen = new Set(exposed.map((breaker) => key(breaker.name)));
  const agedOut: T[] = [];
  const absent: AbsentBreakers = {};
  for (const breaker of known) {
    const name = key(breaker.name);
    if (seen.has(name)) continue;
    const missing = { since: before?.[name]?.since ?? now, scrapes: (before?.[name]?.scrapes ?? 0) + 1 };
    if (missing.scrapes >= AGE_OUT_SCRAPES && now - missing.since >= AGE_OUT_MS) agedOut.push(breaker);
    else absent[name] = missing;
  }
  return { agedOut, absent };
}

/**
 * The exposed breakers the hub takes: every one it has, and new ones (first by name) while the service stays within
 * AGENT_PROTOCOL_LIMITS.breakersPerService; the refusal, for the target's last error, when some were left out.
 */
export function withinLimit(
  service: string,
  exposed: readonly ScrapedBreaker[],
  known: readonly { name: string }[],
): { taken: ScrapedBreaker[]; refusal: string | null } {
  const limit = AGENT_PROTOCOL_LIMITS.breakersPerService;
  const has = new Set(known.map((breaker) => key(breaker.name)));
  let room = limit - has.size;
  const left: string[] = [];
  const taken = exposed.filter((breaker) => {
    if (has.has(key(breaker.name))) return true;
    if (room > 0) {
      room--;
      return true;
    }
    left.push(breaker.name);
    return false;
  });
  if (left.length === 0) return { taken, refusal: null };
  const named = `${left.slice(0, 5).join(', ')}${left.length > 5 ? ', …' : ''}`;
  return {
    taken,
    refusal: `breaker limit reached: service ${service} has ${limit} breakers on the hub, the most one service may; ${left.length} new breakers left out (${named}). Breakers the target no longer exposes leave after ${AGE_OUT_SCRAPES} scrapes and ${AGE_OUT_MS / 60_000} minutes, or delete some on the hub`,
  };
}
