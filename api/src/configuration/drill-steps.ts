import type { ConfigDocument, DrillDefinitionView, DrillItem } from '@cbh/contracts';
import { type AppRequest, requirePermission } from '../identity';
import { DrillBreakerNames, definitionInOrder, refuseUnknownBreakers, type DrillDefinitionsService, type NamedBreaker } from '../drills';
import { byName, key, unchanged, type Step } from './steps';

/*
 * Saved drills in the configuration document: a breaker admin's list like the SLOs (every drill route needs
 * circuit_breaker_admin, reading included), keyed by name. Their steps and expectations name breakers by name — one
 * of the hub's by its name, a service's as { service, name } — and are stored so, never as ids (ids differ between
 * hubs); a run resolves them. A name that neither the hub nor the document has is refused while planning, so in a dry
 * run too; one the same import deletes is found missing when the step applies (DrillDefinitionsService checks again).
 */

/** What the hub holds of the list: its saved drills, and its breakers as drills name them. */
export interface DrillHub {
  definitions: DrillDefinitionView[];
  breakers: NamedBreaker[];
}

export function mayImportDrills(req: AppRequest, items: DrillItem[] | undefined) {
  if (items !== undefined) requirePermission(req, 'circuit_breaker_admin', { purpose: 'to import saved drills' });
}

/** A saved drill as the document holds it, keys always in this order. */
const drillItem = (definition: Pick<DrillItem, 'name' | 'steps' | 'expectations'>): DrillItem => ({
  name: definition.name,
  ...definitionInOrder(definition),
});

export function exportDrills(hub: DrillHub): DrillItem[] {
  return hub.definitions.map(drillItem).sort(byName);
}

const FIELDS = ['name', 'steps', 'expectations'] as const;
type Field = (typeof FIELDS)[number];

/** The fields of the document's drill that differ from the hub's (the name only by its letter case: it is how they were matched). */
function differing(before: Pick<DrillItem, 'name' | 'steps' | 'expectations'>, item: DrillItem): Field[] {
  const [a, b] = [drillItem(before), drillItem(item)];
  return FIELDS.filter((field) => JSON.stringify(a[field]) !== JSON.stringify(b[field]));
}

/**
 * The steps of a document's saved drills against the hub's, deletions (with prune) first; nothing without the list.
 * Applied after the breakers, so that a drill may name a breaker the same document creates.
 */
export function drillSteps(
  definitions: DrillDefinitionsService,
  req: AppRequest,
  document: Pick<ConfigDocument, 'breakers' | 'drills'>,
  hub: DrillHub,
  prune: boolean,
): { deleted: Step[]; kept: Step[] } {
  const items = document.drills;
  if (!items) return { deleted: [], kept: [] };
  // the document's breakers are the hub's own (by name), as they will stand once their steps applied
  const names = new DrillBreakerNames([
    ...hub.breakers,
    ...document.breakers.map((item): NamedBreaker => ({ id: null, name: item.name, source: 'hub', service: null })),
  ]);
  const existing = new Map(hub.definitions.map((row) => [key(row.name), row]));
  const kept = items.map((item, index): Step => {
    const place = `drills[${index}]`;
    const label = `${place} (${item.name})`;
    const row = existing.get(key(item.name));
    const fields = row ? differing(row, item) : [];
    if (row && fields.length === 0) return unchanged('drill', row.name, label);
    if (!row || fields.includes('steps') || fields.includes('expectations')) {
      refuseUnknownBreakers(item, names, `${label}: ${place}.`);
    }
    if (!row) {
      return {
        change: { kind: 'drill', name: item.name, action: 'create' },
        label,
        apply: async (manager) => {
          await definitions.createIn(manager, req, item);
        },
      };
    }
    return {
      change: { kind: 'drill', name: item.name, action: 'update', fields },
      label,
      apply: async (manager) => {
        await definitions.updateIn(manager, req, row.id, Object.fromEntries(fields.map((field) => [field, item[field]])));
      },
    };
  });
  const named = new Set(items.map((item) => key(item.name)));
  const deleted = prune
    ? hub.definitions
        .filter((row) => !named.has(key(row.name)))
        .map((row): Step => ({
          change: { kind: 'drill', name: row.name, action: 'delete' },
          label: `saved drill ${row.name}`,
          apply: (manager) => definitions.removeIn(manager, req, row.id),
        }))
    : [];
  return { deleted, kept };
}
