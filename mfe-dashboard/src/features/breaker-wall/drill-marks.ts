import { useMemo } from 'react';
import { skipToken, useGetDrillsQuery } from '@cbh/api-client';
import type { DrillView } from '@cbh/contracts';

/** The running drill a breaker is under, as its tile's badge names and links it. */
export interface DrillMark {
  id: number;
  name: string;
}

/** Each breaker a running drill's steps inject faults into, with that drill (a breaker is under one drill at a time). */
export function drillMarks(drills: readonly DrillView[]): ReadonlyMap<number, DrillMark> {
  const marks = new Map<number, DrillMark>();
  for (const drill of drills) {
    if (drill.state !== 'running') continue;
    const mark = { id: drill.id, name: drill.name };
    for (const step of drill.steps) if (!marks.has(step.breaker.id)) marks.set(step.breaker.id, mark);
  }
  return marks;
}

const NONE: ReadonlyMap<number, DrillMark> = new Map();

/**
 * The wall's marks of breakers under a running drill, for holders of circuit_breaker_admin (the drills are theirs to
 * read; no one else asks). A live drillChanged reads the drills again; the marks change only when the drills do, so
 * the memoised tiles re-render only then.
 */
export function useDrillMarks(enabled: boolean): ReadonlyMap<number, DrillMark> {
  const drills = useGetDrillsQuery(enabled ? undefined : skipToken);
  return useMemo(() => (drills.data ? drillMarks(drills.data) : NONE), [drills.data]);
}
