import type { StatusComponentInput, StatusComponentView } from '@cbh/contracts';

/** A component as PATCH /api/status-pages/{id} sends it back: what is empty is left out, never null. */
export function inputOf(component: Omit<StatusComponentView, 'id' | 'state'> & { id?: number }): StatusComponentInput {
  return {
    // its id keeps its history and incidents through a rename
    ...(component.id !== undefined ? { id: component.id } : {}),
    name: component.name,
    ...(component.description ? { description: component.description } : {}),
    ...(component.group ? { group: component.group } : {}),
    breakers: [...component.breakers],
    domains: [...component.domains],
  };
}

/** The list with the component at `index` moved by `step` (−1 up, +1 down); unchanged at either end. */
export function moved<T>(list: readonly T[], index: number, step: -1 | 1): T[] {
  const to = index + step;
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}
