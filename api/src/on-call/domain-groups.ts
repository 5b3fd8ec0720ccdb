import type { AlertGroupEntity } from './entities/alert-group.entity';

/**
 * Groups that tell of domains, which only holders of domain_management may read: a domain's own, and an SLO's whose
 * indicator counts domains' checks (its events say so in `slo.kind`).
 */
export function isDomainGroup(group: Pick<AlertGroupEntity, 'subjectKind' | 'openingData'>): boolean {
  return (
    group.subjectKind === 'domain' ||
    (group.subjectKind === 'slo' && (group.openingData.slo as { kind?: string } | undefined)?.kind === 'domain-uptime')
  );
}

/** isDomainGroup in SQL, for the alert_groups row called `table`. */
export const DOMAIN_GROUP_SQL = (table: string) =>
  `(${table}.subject_kind = 'domain' OR (${table}.subject_kind = 'slo' AND ${table}.opening_data -> 'slo' ->> 'kind' = 'domain-uptime'))`;
