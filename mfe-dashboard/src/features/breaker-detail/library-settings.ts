import type { BreakerConfigView } from '@cbh/contracts';
import { compact, type Problems } from '../shared/form-checks';

/*
 * An agent's breaker's settings in its library's words (opossum's errorThresholdPercentage, cockatiel's
 * halfOpenAfter…). The hub changes only the numeric ones: the flags and names a library takes are the service's to
 * set. The form asks for a number of at least 0, as updateLibrarySettingsSchema does; the API judges again (its upper
 * bound too) and has the last word.
 */

/** The draft: each numeric setting as typed. */
export type LibrarySettingsDraft = Record<string, string>;

/** The settings the hub may change, in the order the breaker lists them. */
export function numericSettings(settings: BreakerConfigView['librarySettings']): [string, number][] {
  return Object.entries(settings ?? {}).filter((entry): entry is [string, number] => typeof entry[1] === 'number');
}

export const draftOf = (settings: readonly [string, number][]): LibrarySettingsDraft =>
  Object.fromEntries(settings.map(([name, value]) => [name, String(value)]));

export function librarySettingsProblems(draft: LibrarySettingsDraft): Problems<string> {
  return compact(
    Object.fromEntries(
      Object.entries(draft).map(([name, text]) => {
        const value = Number(text);
        const problem = text.trim() === '' || !Number.isFinite(value) ? 'must be a number' : value < 0 ? 'must be at least 0' : undefined;
        return [name, problem];
      }),
    ),
  );
}

/** What the edit changes: only the settings given a new value, so each instance is told of nothing else. */
export function changedSettings(draft: LibrarySettingsDraft, settings: readonly [string, number][]): Record<string, number> {
  return Object.fromEntries(
    settings.flatMap(([name, value]) => {
      const typed = Number(draft[name]);
      return draft[name]?.trim() !== '' && Number.isFinite(typed) && typed !== value ? [[name, typed]] : [];
    }),
  );
}

/** A setting as the card shows it: a library's "no limit" (opossum's default capacity is Number.MAX_SAFE_INTEGER) in words. */
export function settingText(value: number | string | boolean): string {
  if (typeof value === 'number' && value >= Number.MAX_SAFE_INTEGER) return 'no limit';
  return String(value);
}
