import { IMPORT_ACTIONS, type ImportAction, type ImportChange } from '@cbh/contracts';
import { plural } from '@cbh/ui';

export type ActionCounts = Record<ImportAction, number>;

/** How many items of an import's diff each action touches. */
export function countChanges(changes: readonly ImportChange[]): ActionCounts {
  const counts = Object.fromEntries(IMPORT_ACTIONS.map((action) => [action, 0])) as ActionCounts;
  for (const change of changes) counts[change.action] += 1;
  return counts;
}

/** The items an apply would change: every one but the unchanged. */
export function changeCount(counts: ActionCounts): number {
  return counts.create + counts.update + counts.delete;
}

const PAST: Record<ImportAction, string> = { create: 'created', update: 'updated', delete: 'deleted', unchanged: 'unchanged' };

/** What an apply did, for its toast: '1 created, 1 updated, 0 deleted, 12 unchanged.' */
export function appliedText(counts: ActionCounts): string {
  return `${IMPORT_ACTIONS.map((action) => `${counts[action]} ${PAST[action]}`).join(', ')}.`;
}

/** What an apply is about to do, for its confirmation. */
export function pendingText(counts: ActionCounts): string {
  const parts = [
    counts.create ? `creates ${plural(counts.create, 'item')}` : null,
    counts.update ? `updates ${plural(counts.update, 'item')}` : null,
    counts.delete ? `deletes ${plural(counts.delete, 'item')}` : null,
  ].filter(Boolean);
  return `This ${parts.join(', ')} in one transaction: either every change is made or none is.`;
}

/**
 * The media type of a pasted or uploaded document: a JSON document is an object, so it starts with a brace; anything
 * else is read as YAML (which the API parses by its own rules and names the line of a mistake).
 */
export function documentMediaType(text: string): 'application/json' | 'application/yaml' {
  return text.trimStart().startsWith('{') ? 'application/json' : 'application/yaml';
}
