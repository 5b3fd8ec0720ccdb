import type { PrunedKind, RetentionSettings } from '@cbh/contracts';

/**
 * Rows of a table that become history: the retention context deletes them, batch by batch, once old enough. Each
 * context names its own tables so (its history.ts); retention only assembles the lists. `old` is the SQL condition
 * of a row old enough to go, `$1` being the kind's days (`days`, or none when the age is fixed). Constants of the
 * code only: nothing a request sends reaches these strings.
 */
export interface PrunableHistory {
  kind: PrunedKind;
  table: string;
  old: string;
  days: keyof RetentionSettings | null;
}
