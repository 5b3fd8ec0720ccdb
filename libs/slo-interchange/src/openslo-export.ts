import { SLO_INDICATOR_LABELS } from '@cbh/contracts';
import { stringify } from 'yaml';
import { CBH_SOURCE_TYPE, dnsLabel, indicatorSourceSpec, ratioOfPercent, uniqueDnsLabels, type SloDefinition } from './slo-definition';

/**
 * OpenSLO's limit on a description; a longer one (the hub takes 2,000 characters) is kept whole in this annotation,
 * whose prefix is a dotted name as annotation prefixes are (.local: a name of no one's on the internet).
 */
export const OPENSLO_DESCRIPTION_MAX = 1050;
export const FULL_DESCRIPTION_ANNOTATION = 'cbh.local/description';

/** The same options for every document, so that the same SLOs are always the same bytes. */
export const YAML_OPTIONS = { lineWidth: 0, indent: 2, aliasDuplicateObjects: false } as const;

/** One SLO as an OpenSLO v1 document (a plain object, keys in the order they are written). */
export function openSloDocument(slo: SloDefinition, name = dnsLabel(slo.name)): Record<string, unknown> {
  const description = slo.description?.trim() || null;
  const long = description !== null && description.length > OPENSLO_DESCRIPTION_MAX;
  const metricSource = (events: 'good' | 'total') => ({
    metricSource: { type: CBH_SOURCE_TYPE, spec: indicatorSourceSpec(slo.indicator, events) },
  });
  const service = 'service' in slo.indicator && slo.indicator.service ? slo.indicator.service : 'hub';
  return {
    apiVersion: 'openslo/v1',
    kind: 'SLO',
    metadata: {
      name,
      displayName: slo.name,
      ...(long ? { annotations: { [FULL_DESCRIPTION_ANNOTATION]: description } } : {}),
    },
    spec: {
      ...(description === null ? {} : { description: long ? `${description.slice(0, OPENSLO_DESCRIPTION_MAX - 1)}…` : description }),
      service: dnsLabel(service, 'hub'),
      indicator: {
        metadata: { name: slo.indicator.kind, displayName: SLO_INDICATOR_LABELS[slo.indicator.kind] },
        spec: { ratioMetric: { counter: true, good: metricSource('good'), total: metricSource('total') } },
      },
      timeWindow: [{ duration: slo.window, isRolling: true }],
      // the hub counts good events of all (not good minutes), as Occurrences does
      budgetingMethod: 'Occurrences',
      objectives: [{ target: ratioOfPercent(slo.target) }],
    },
  };
}

/**
 * The SLOs as OpenSLO v1 YAML, one document each (`---` between them), in the order given. metadata.name is a DNS-1123
 * label made from the name (unique in the file); the name itself is metadata.displayName, which `fromOpenSlo` reads
 * back, and the indicator is inline with `cbh` metric sources carrying the hub's indicator as it is.
 */
export function toOpenSlo(slos: readonly SloDefinition[]): string {
  const names = uniqueDnsLabels(slos.map((slo) => slo.name));
  return slos.map((slo, i) => stringify(openSloDocument(slo, names[i]), YAML_OPTIONS)).join('---\n');
}
