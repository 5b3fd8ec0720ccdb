import { ON_CALL_LIMITS as L } from '@cbh/contracts';

/*
 * Checks the on-call forms share, in the words of the on-call schemas (libs/contracts/src/on-call.ts). Where a schema
 * has no words of its own for a case (a negative wait reads "must be a number" there), these say what is wrong.
 */

/** A policy's or a schedule's name. */
export function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'must not be empty';
  if (trimmed.length > L.nameLength) return `must be at most ${L.nameLength} characters`;
  return undefined;
}

/** A whole number typed into a field: `fraction` is said of 2.5, `range` (else "at least"/"at most") outside min–max. */
export function wholeProblem(text: string, min: number, max: number, fraction: string, range?: string): string | undefined {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) return 'must be a number';
  if (!Number.isInteger(value)) return fraction;
  if (value < min) return range ?? `must be at least ${min}`;
  if (value > max) return range ?? `must be at most ${max}`;
  return undefined;
}

/** How many items a list holds (a policy's steps): 'must hold at least one step', 'must hold at most 10 steps'. */
export function listProblem(count: number, min: number, max: number, noun: string): string | undefined {
  if (count < min) return `must hold at least one ${noun}`;
  if (count > max) return `must hold at most ${max} ${noun}s`;
  return undefined;
}
