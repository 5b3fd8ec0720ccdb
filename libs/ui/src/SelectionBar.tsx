import { useCallback, useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { Button } from './Button';
import { theme } from './theme';

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px 12px;
  margin-bottom: 12px;
  padding: 8px 12px;
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  background: ${theme.colors.surface};
  font-size: 14px;
  label {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    cursor: pointer;
  }
  output {
    margin-right: auto;
    color: ${theme.colors.muted};
    font-variant-numeric: tabular-nums;
  }
`;

export interface SelectionAction<A extends string> {
  action: A;
  label: string;
}

/**
 * The toolbar of a list whose rows can be chosen for one action on all of them: 'Select all shown' (checked when
 * every shown row is, mixed when some are), how many are chosen, and the actions the person may take, usable once
 * something is chosen.
 */
export function SelectionBar<A extends string>({
  label,
  shown,
  selected,
  onSelectAll,
  actions,
  onAction,
}: {
  /** Names the toolbar, e.g. 'Bulk actions on breakers'. */
  label: string;
  /** Rows shown now (the list's filters applied). */
  shown: number;
  /** Shown rows chosen. */
  selected: number;
  onSelectAll: (all: boolean) => void;
  actions: readonly SelectionAction<A>[];
  onAction: (action: A) => void;
}) {
  const all = useRef<HTMLInputElement>(null);
  const every = shown > 0 && selected === shown;
  useEffect(() => {
    if (all.current) all.current.indeterminate = selected > 0 && !every;
  }, [selected, every]);
  return (
    <Bar role="toolbar" aria-label={label}>
      <label>
        <input ref={all} type="checkbox" checked={every} disabled={shown === 0} onChange={(event) => onSelectAll(event.target.checked)} />
        Select all shown
      </label>
      <output aria-live="polite">{selected} selected</output>
      {actions.map(({ action, label: text }) => (
        <Button key={action} $variant="outline" disabled={selected === 0} onClick={() => onAction(action)}>
          {text}
        </Button>
      ))}
    </Bar>
  );
}

/**
 * The ids chosen in a list. `toggle` keeps its identity, so memoised rows that take it re-render only when their
 * own choice changes, not every row on every click.
 */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set());
  const toggle = useCallback(
    (id: number) =>
      setSelected((previous) => {
        const next = new Set(previous);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  /** Chooses every one of `ids` (all) or none of them, leaving the choice of rows not shown as it is. */
  const selectAll = useCallback(
    (ids: readonly number[], all: boolean) =>
      setSelected((previous) => {
        const next = new Set(previous);
        for (const id of ids) {
          if (all) next.add(id);
          else next.delete(id);
        }
        return next;
      }),
    [],
  );
  return { selected, toggle, selectAll, setSelected };
}
