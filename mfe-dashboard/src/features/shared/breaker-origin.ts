import type { BreakerConfigView, BreakerSource, BreakerStats } from '@cbh/contracts';
import { plural } from '@cbh/ui';

/*
 * How the screens name where a breaker runs: the hub's own breakers by their type alone, a service's by the service,
 * its library and the source the hub learns of it from (its agent, or a scrape of its Prometheus endpoint).
 */

export const SOURCE_LABELS: Record<BreakerSource, string> = { hub: 'Hub', agent: 'Agent', scrape: 'Scrape' };

/** 'checkout · opossum (agent)', 'orders · resilience4j (scrape, read-only)'; null for a breaker of the hub's. */
export function originText(breaker: Pick<BreakerConfigView, 'source' | 'service' | 'library' | 'type'>): string | null {
  if (breaker.source === 'hub') return null;
  const source = breaker.source === 'scrape' ? 'scrape, read-only' : breaker.source;
  return `${breaker.service ?? 'unknown service'} · ${breaker.library ?? breaker.type} (${source})`;
}

/** '2 instances', '3 instances, 1 stale': the live ones (those the figures sum up), and those fallen silent. */
export function instancesText({ total, stale }: NonNullable<BreakerStats['instances']>): string {
  return stale > 0 ? `${plural(total, 'instance')}, ${stale} stale` : plural(total, 'instance');
}
