import { UnprocessableEntityException } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ConfigDocument, CreateSlo, SloIndicator, SloItem } from '@cbh/contracts';
import { type AppRequest, requirePermission } from '../identity';
import type { BreakersService } from '../breakers';
import type { DomainsService } from '../domains';
import { mayUseSlo, type SloEntity, type SlosService } from '../slos';
import { memberNamesIn, type MemberNames } from './status-page-steps';
import { byName, key, unchanged, type Step } from './steps';

/*
 * Service level objectives in the configuration document: a breaker admin's list like the status pages, keyed by
 * name. Their indicators name breakers as rules do and domains by name, since ids differ between hubs; the names are
 * resolved when applied, inside the import's transaction, so a breaker or domain the same document creates can be
 * named. SLOs over domains follow the API's rule: without domain_management they are left out of the export, left
 * alone by a prune, and a document's is refused.
 */

/** What the hub holds of the list: the SLOs the caller may read, and its breakers' and domains' names. */
export interface SloHub {
  slos: SloEntity[];
  names: MemberNames;
}

export interface SloOwners {
  slos: SlosService;
  breakers: BreakersService;
  domains: DomainsService;
}

export function mayImportSlos(req: AppRequest, items: SloItem[] | undefined) {
  if (items !== undefined) requirePermission(req, 'circuit_breaker_admin', { purpose: 'to import SLOs' });
}

const byKey = (a: string, b: string) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0);

/** Ids as names, sorted so that the export does not depend on the order they were given in; an id no longer there is left out. */
const namesOf = (ids: readonly number[], names: Map<number, string>) =>
  ids.flatMap((id) => (names.has(id) ? [names.get(id)!] : [])).sort(byKey);

function indicatorItem(indicator: SloIndicator, names: MemberNames): SloItem['indicator'] {
  switch (indicator.kind) {
    case 'breaker-calls':
    case 'breaker-latency': {
      const members =
        indicator.service !== undefined ? { service: indicator.service } : { breakers: namesOf(indicator.breakers ?? [], names.breakers) };
      return indicator.kind === 'breaker-calls'
        ? { kind: indicator.kind, ...members }
        : { kind: indicator.kind, ...members, thresholdMs: indicator.thresholdMs };
    }
    case 'domain-uptime':
      return { kind: indicator.kind, domains: namesOf(indicator.domains, names.domains) };
    case 'remote-loads':
      return { kind: indicator.kind, remote: indicator.remote };
  }
}

/** An SLO as the document holds it, keys always in this order, its description only when it has one. */
function sloItem(row: SloEntity, names: MemberNames): SloItem {
  return {
    name: row.name,
    ...(row.description !== null && { description: row.description }),
    target: row.target,
    window: row.window,
    indicator: indicatorItem(row.indicator, names),
  };
}

export function exportSlos(hub: SloHub): SloItem[] {
  return hub.slos.map((row) => sloItem(row, hub.names)).sort(byName);
}

/** An indicator as compared: members in any order and letter case name the same breakers and domains. */
const comparable = (indicator: SloItem['indicator']) =>
  JSON.stringify({
    ...indicator,
    ...('breakers' in indicator && indicator.breakers && { breakers: indicator.breakers.map(key).sort() }),
    ...('domains' in indicator && { domains: indicator.domains.map(key).sort() }),
  });

const FIELDS = ['name', 'description', 'target', 'window', 'indicator'] as const;
type Field = (typeof FIELDS)[number];

/** The fields of the document's SLO that differ from the hub's (the name only by its letter case: it is how they were matched). */
function differing(before: SloItem, item: SloItem): Field[] {
  return FIELDS.filter((field) =>
    field === 'indicator' ? comparable(before.indicator) !== comparable(item.indicator) : (before[field] ?? null) !== (item[field] ?? null),
  );
}

/** The names an indicator gives, by what they name. */
function membersOf(indicator: SloItem['indicator']): { what: 'breaker' | 'domain'; names: string[] } | null {
  if (indicator.kind === 'domain-uptime') return { what: 'domain', names: indicator.domains };
  if ((indicator.kind === 'breaker-calls' || indicator.kind === 'breaker-latency') && indicator.breakers)
    return { what: 'breaker', names: indicator.breakers };
  return null;
}

/** A name that names nothing, as the API answers an id that names nothing: 422, naming its place (after `prefix`). */
function refuseUnknown(prefix: string, place: string, what: 'breaker' | 'domain', names: string[], known: (name: string) => boolean) {
  const unknown = names.filter((name) => !known(name));
  if (unknown.length > 0) {
    throw new UnprocessableEntityException(`${prefix}${place}.indicator.${what}s: no ${what} named ${unknown.join(', ')}`);
  }
}

/** The indicator with its names resolved to ids in the transaction (breakers or domains the import made included). */
async function resolvedIn(
  manager: EntityManager,
  owners: SloOwners,
  place: string,
  indicator: SloItem['indicator'],
): Promise<SloIndicator> {
  const members = membersOf(indicator);
  if (!members) return indicator as SloIndicator;
  const names = await memberNamesIn(manager, owners.breakers, owners.domains);
  const ids = new Map([...names[`${members.what}s`]].map(([id, name]) => [key(name), id]));
  // a step's refusal is prefixed with its label when it fails (see ConfigurationService)
  refuseUnknown('', place, members.what, members.names, (name) => ids.has(key(name)));
  const resolved = members.names.map((name) => ids.get(key(name))!);
  return { ...indicator, [`${members.what}s`]: resolved } as SloIndicator;
}

/**
 * The steps of a document's SLOs against the hub's, deletions (with prune) first; nothing without the list. An item the
 * caller may not make (one over domains without domain_management) is refused, and one naming a breaker or domain
 * that neither the hub nor the document has is a 422, while planning, so in a dry run too; a name the same import
 * deletes is found missing when the step applies.
 */
export function sloSteps(
  owners: SloOwners,
  req: AppRequest,
  document: Pick<ConfigDocument, 'breakers' | 'domains' | 'slos'>,
  hub: SloHub,
  prune: boolean,
): { deleted: Step[]; kept: Step[] } {
  const items = document.slos;
  if (!items) return { deleted: [], kept: [] };
  const known = {
    breaker: new Set([...hub.names.breakers.values(), ...document.breakers.map((item) => item.name)].map(key)),
    domain: new Set([...hub.names.domains.values(), ...document.domains.map((item) => item.name)].map(key)),
  };
  const existing = new Map(hub.slos.map((row) => [key(row.name), row]));
  const kept = items.map((item, index): Step => {
    const place = `slos[${index}]`;
    const label = `${place} (${item.name})`;
    const row = existing.get(key(item.name));
    const fields = row ? differing(sloItem(row, hub.names), item) : [];
    if (row && fields.length === 0) return unchanged('slo', row.name, label);
    if (!mayUseSlo(req, item.indicator as SloIndicator)) {
      requirePermission(req, 'domain_management', { place: label, purpose: 'for an SLO over domains' });
    }
    const members = membersOf(item.indicator);
    if (members && (!row || fields.includes('indicator'))) {
      refuseUnknown(`${label}: `, place, members.what, members.names, (name) => known[members.what].has(key(name)));
    }
    if (!row) {
      return {
        change: { kind: 'slo', name: item.name, action: 'create' },
        label,
        apply: async (manager) => {
          const body: CreateSlo = {
            name: item.name,
            description: item.description ?? null,
            target: item.target,
            window: item.window,
            indicator: await resolvedIn(manager, owners, place, item.indicator),
          };
          await owners.slos.createIn(manager, req, body);
        },
      };
    }
    return {
      change: { kind: 'slo', name: item.name, action: 'update', fields },
      label,
      // only what changed: a new indicator forgets the SLO's counts, an unchanged one must not
      apply: async (manager) => {
        const body: Partial<CreateSlo> = {};
        if (fields.includes('name')) body.name = item.name;
        if (fields.includes('description')) body.description = item.description ?? null;
        if (fields.includes('target')) body.target = item.target;
        if (fields.includes('window')) body.window = item.window;
        if (fields.includes('indicator')) body.indicator = await resolvedIn(manager, owners, place, item.indicator);
        await owners.slos.updateIn(manager, req, row.id, body);
      },
    };
  });
  const named = new Set(items.map((item) => key(item.name)));
  const deleted = prune
    ? hub.slos
        .filter((row) => !named.has(key(row.name)))
        .map((row): Step => ({
          change: { kind: 'slo', name: row.name, action: 'delete' },
          label: `SLO ${row.name}`,
          apply: (manager) => owners.slos.removeIn(manager, req, row.id),
        }))
    : [];
  return { deleted, kept };
}
