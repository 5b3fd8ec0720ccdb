// docs/performance.md holds the last full `npm run bench` table between two marker lines: the run writes it there, so
// the document never shows figures older than the last run, and no one keeps them by hand.
import { readFileSync, writeFileSync } from 'node:fs';

export const TABLE_START = '<!-- bench:table:start -->';
export const TABLE_END = '<!-- bench:table:end -->';

/** The document with `table` between its markers (what was there before goes); throws when the markers are missing. */
export function withTable(document, table) {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the document has no ${TABLE_START} … ${TABLE_END} lines`);
  return `${document.slice(0, start + TABLE_START.length)}\n\n${table.trim()}\n\n${document.slice(end)}`;
}

export function writeTableInto(file, table) {
  writeFileSync(file, withTable(readFileSync(file, 'utf8'), table));
}
