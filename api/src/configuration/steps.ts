import type { EntityManager } from 'typeorm';
import type { ImportChange, ImportKind } from '@cbh/contracts';

/** Items are keyed by name whatever the letter case (the unique indexes say the same). */
export const key = (name: string) => name.toLowerCase();
export const byName = <T extends { name: string }>(a: T, b: T) => (key(a.name) < key(b.name) ? -1 : key(a.name) > key(b.name) ? 1 : 0);

/** One item's change, and how to apply it inside the import's transaction; items created or updated together are applied by one step. */
export interface Step {
  change?: ImportChange;
  /** where the item is in the document, or for a deletion what it is: what a refusal names */
  label: string;
  /** A check that needs more than the hub's rows (an address looked up), run before anything is applied, in a dry run too. */
  check?: () => Promise<void>;
  apply?: (manager: EntityManager) => Promise<void>;
}

/** What the replicas and screens are told once the import commits. */
export type Announcement = () => Promise<unknown>;

export function unchanged(kind: ImportKind, name: string, label: string): Step {
  return { change: { kind, name, action: 'unchanged' }, label };
}
