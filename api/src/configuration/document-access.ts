import {
  ADMIN_LISTS,
  CORE_LIST_PERMISSIONS,
  CORE_LISTS,
  hasPermission,
  type ConfigDocument,
  type CoreList,
  type DocumentList,
} from '@cbh/contracts';
import { type AppRequest, requirePermission } from '../identity';

/*
 * export_data and import_data let their holder move the document, not read or change what it lists: each list and
 * each item needs what its own routes need (CORE_LIST_PERMISSIONS; the notification lists and scrape targets, see
 * notification-steps and scrape-target-steps). What the caller may not read is left out of their export, and what
 * they may not change is refused on import, naming the item, before anything is applied.
 */

/** The lists an export leaves out for this caller, in the document's order: what `omitted` names. */
export function omittedLists(req: AppRequest): DocumentList[] {
  const core = CORE_LISTS.filter((list) => !hasPermission(req.user, CORE_LIST_PERMISSIONS[list].read));
  return [...core, ...(hasPermission(req.user, 'circuit_breaker_admin') ? [] : ADMIN_LISTS)];
}

/**
 * The breakers, services and domains lists an import applies: not one its document names in `omitted` (which the schema
 * keeps empty), nor one its caller may not read that the document leaves empty, so that neither is pruned. A list its
 * caller may not read that names items is refused (403): even a dry run's "unchanged" would tell them what the hub has.
 */
export function appliedLists(req: AppRequest, document: ConfigDocument): Set<CoreList> {
  const applied = new Set<CoreList>();
  for (const list of CORE_LISTS) {
    if (document.omitted?.includes(list)) continue;
    const { read } = CORE_LIST_PERMISSIONS[list];
    if (!hasPermission(req.user, read)) {
      if (document[list].length === 0) continue;
      requirePermission(req, read, { place: list, purpose: `to import ${list}: leave the list empty to leave them alone` });
    }
    applied.add(list);
  }
  return applied;
}

/** Creating, changing or deleting an item of a list needs what the item's own route needs (403 naming the item). */
export function mayChange(req: AppRequest, list: CoreList, place: string, action: 'create' | 'change' | 'delete') {
  requirePermission(req, CORE_LIST_PERMISSIONS[list].change, { place, purpose: `to ${action} ${list}` });
}
