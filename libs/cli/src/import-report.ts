import { styleText } from 'node:util';
import type { ImportAction, ImportChange } from '@cbh/contracts';
import { count } from './progress';

const MARKS: Record<Exclude<ImportAction, 'unchanged'>, { mark: string; color: 'green' | 'yellow' | 'red' }> = {
  create: { mark: '+', color: 'green' },
  update: { mark: '~', color: 'yellow' },
  delete: { mark: '-', color: 'red' },
};

/** A change of an import, or of an item cbh applies itself (an SLO of an OpenSLO file). */
export type Change = Omit<ImportChange, 'kind'> & { kind: ImportChange['kind'] | 'slo' };
type Changes = { changes: readonly Change[] };

/** The lines of an import's diff, one per change (unchanged items left out), coloured on a terminal. */
export function diffLines(result: Changes, colors: boolean): string[] {
  return changed(result).map((change) => diffLine(change, colors));
}

export function diffLine(change: Change, colors: boolean): string {
  const { mark, color } = MARKS[change.action as keyof typeof MARKS];
  const line = `${mark} ${change.kind} ${change.name}${change.fields?.length ? `: ${change.fields.join(', ')}` : ''}`;
  return colors ? styleText(color, line) : line;
}

/** "3 changes: 1 to create, 1 to update, 1 to delete (12 unchanged)", or for an applied import "… created …". */
export function summary(result: Changes, applied: boolean): string {
  const changes = changed(result);
  const unchanged = result.changes.length - changes.length;
  const rest = unchanged ? ` (${count(unchanged)} unchanged)` : '';
  if (!changes.length) return `No changes: the hub already matches the document${rest}`;
  const parts = (['create', 'update', 'delete'] as const)
    .map((action) => [action, changes.filter((change) => change.action === action).length] as const)
    .filter(([, n]) => n > 0)
    .map(([action, n]) => `${count(n)} ${applied ? `${action}d` : `to ${action}`}`);
  return `${applied ? 'Applied ' : ''}${count(changes.length)} change${changes.length === 1 ? '' : 's'}: ${parts.join(', ')}${rest}`;
}

export const changed = (result: Changes): Change[] => result.changes.filter((change) => change.action !== 'unchanged');
