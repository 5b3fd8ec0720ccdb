import { readResilience4jMetrics, type ScrapedBreaker } from './resilience4j-metrics';

/*
 * What the resilience4j reader's spec files share: the state series every exposition has, and the breakers read
 * from a text by name.
 */

/**
 * The six state series resilience4j writes for one breaker, the given one at 1 (Micrometer 1.13+ text: labels
 * sorted), tagged with the application unless it is null.
 */
export function stateSeries(name: string, current: string, application: string | null = 'orders-service') {
  const tag = application === null ? '' : `application="${application}",`;
  return ['disabled', 'metrics_only', 'closed', 'open', 'forced_open', 'half_open']
    .map((state) => `resilience4j_circuitbreaker_state{${tag}name="${name}",state="${state}"} ${state === current ? '1.0' : '0.0'}`)
    .join('\n');
}

/** The breakers read from an exposition, by name. */
export const byName = (text: string) => new Map(readResilience4jMetrics(text).breakers.map((breaker) => [breaker.name, breaker]));

/** The breaker of that name, or a failure naming those there are. */
export function get(breakers: Map<string, ScrapedBreaker>, name: string): ScrapedBreaker {
  const breaker = breakers.get(name);
  if (!breaker) throw new Error(`no breaker ${name} among ${[...breakers.keys()].join(', ')}`);
  return breaker;
}
