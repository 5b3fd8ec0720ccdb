import type { SloIndicator, SloView } from '@cbh/contracts';

/** What an SLO is, without what the hub measured of it: a SloView, or a body of POST /api/slos. */
export type SloDefinition = Pick<SloView, 'name' | 'target' | 'window' | 'indicator'> & { description?: string | null };

/** The metric source type of the hub's own indicators in OpenSLO: its spec is the indicator itself. */
export const CBH_SOURCE_TYPE = 'cbh';

/** An RFC 1123 label's length: the names every OpenSLO implementation must support. */
const DNS_LABEL_MAX = 63;

/** A DNS-1123 label made from free text: "Checkout API — 99.9 %" becomes checkout-api-99-9. */
export function dnsLabel(text: string, fallback = 'slo'): string {
  const label = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents off: Café is cafe, not caf-
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, DNS_LABEL_MAX)
    .replace(/^-+|-+$/g, '');
  return label || fallback;
}

/** Labels for each text, made unique as they come: a second "checkout" is checkout-2 (still at most 63 characters). */
export function uniqueDnsLabels(texts: readonly string[]): string[] {
  const taken = new Set<string>();
  return texts.map((text) => {
    const stem = dnsLabel(text);
    let label = stem;
    for (let n = 2; taken.has(label); n++) {
      const suffix = `-${n}`;
      label = `${stem.slice(0, DNS_LABEL_MAX - suffix.length).replace(/-+$/, '')}${suffix}`;
    }
    taken.add(label);
    return label;
  });
}

/*
 * The hub's targets are percentages of at most three decimals (99.9, 99.999), OpenSLO's `target` a ratio (0.999).
 * Both ways go through whole thousandths of a percent, so that 99.9 is written 0.999 and not 0.9990000000000001 and
 * reads back as 99.9.
 */
const MILLI_PERCENT_PER_RATIO = 100_000;

export function ratioOfPercent(percent: number): number {
  return Math.round(percent * 1000) / MILLI_PERCENT_PER_RATIO;
}

/** The percentage of a ratio, or null when the ratio has more than five decimals (a finer target than the hub keeps). */
export function percentOfRatio(ratio: number): number | null {
  const milli = ratio * MILLI_PERCENT_PER_RATIO;
  return Math.abs(milli - Math.round(milli)) < 1e-6 ? Math.round(milli) / 1000 : null;
}

/** The same for a percentage: null past three decimals. */
export function percentOfPercent(percent: number): number | null {
  const milli = percent * 1000;
  return Math.abs(milli - Math.round(milli)) < 1e-6 ? Math.round(milli) / 1000 : null;
}

/** Which events a metric source of an indicator counts. */
export type CountedEvents = 'good' | 'total';

/**
 * The indicator as a `cbh` metric source's spec: its fields in one fixed order (so that two exports of the same SLO
 * are the same bytes), and which of its events the source counts.
 */
export function indicatorSourceSpec(indicator: SloIndicator, events: CountedEvents): Record<string, unknown> {
  const fields = indicator as Partial<Record<string, unknown>>;
  const spec: Record<string, unknown> = { kind: indicator.kind };
  for (const key of ['breakers', 'service', 'thresholdMs', 'domains', 'remote']) {
    if (fields[key] !== undefined) spec[key] = fields[key];
  }
  spec.events = events;
  return spec;
}
