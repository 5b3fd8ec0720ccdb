/** Sorting a ResponsiveTable by its columns: the headings sort on a desk, a "Sort by" picker on a phone. */
import { useMemo, useState } from 'react';
import styled from 'styled-components';
import { FieldLabel, Select } from './Select';
import { NARROW_SCREEN, theme } from './theme';

export type SortDirection = 'ascending' | 'descending';

/** The column the rows are sorted by (its header) and which way. */
export interface TableSortState {
  column: string;
  direction: SortDirection;
}

/** What a sortable column is sorted by: text (in the reader's order, whatever the case) or a number; null comes last. */
export type SortValue = string | number | null;

interface SortableColumn<Row> {
  header: string;
  sortValue?: (row: Row) => SortValue;
}

// made once: localeCompare with options builds a collator on every call (6 µs against 0.1 µs, per comparison of a sort);
// at the first sort, not as the module loads (a page's first collator costs Chromium about 16 ms, see format.ts)
let textOrder: Intl.Collator | undefined;

function compare(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  textOrder ??= new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
  return textOrder.compare(String(a), String(b));
}

/**
 * `rows` in the order `sort` asks (a copy; rows that compare equal keep their order). A row without a value (no
 * events yet, no date) comes last whichever way the column is sorted: it is what no order can place.
 */
export function sortedRows<Row>(
  rows: readonly Row[],
  columns: readonly SortableColumn<Row>[],
  sort: TableSortState | null,
): readonly Row[] {
  const value = columns.find((column) => column.header === sort?.column)?.sortValue;
  if (!sort || !value) return rows;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return rows
    .map((row) => ({ row, key: value(row) }))
    .sort((a, b) => (a.key === null || b.key === null ? Number(a.key === null) - Number(b.key === null) : sign * compare(a.key, b.key)))
    .map((entry) => entry.row);
}

/** A table's sort: the state, the rows in its order, and what a heading or the picker changes. */
export function useTableSort<Row>(rows: readonly Row[], columns: readonly SortableColumn<Row>[], initial?: TableSortState) {
  const [sort, setSort] = useState<TableSortState | null>(initial ?? null);
  const sorted = useMemo(() => sortedRows(rows, columns, sort), [rows, columns, sort]);
  return {
    sort,
    sorted,
    setSort,
    /** A heading pressed: its column ascending, or the other way when it already sorts the rows. */
    toggle: (column: string) =>
      setSort((current) => ({
        column,
        direction: current?.column === column && current.direction === 'ascending' ? 'descending' : 'ascending',
      })),
  };
}

/** A heading that sorts: the whole heading is the button, with an arrow for the way it sorts. */
const HeadingButton = styled.button`
  display: inline-flex;
  align-items: center;
  gap: 4px;
  min-height: 24px;
  padding: 0;
  border: 0;
  background: none;
  font: inherit;
  color: inherit;
  cursor: pointer;
  &:focus-visible {
    outline: 2px solid ${theme.colors.primary};
    outline-offset: 2px;
  }
`;

const ARROWS: Record<SortDirection | 'none', string> = { ascending: '▲', descending: '▼', none: '↕' };

/** The heading of a sortable column (its th carries aria-sort, which tells a screen reader the way). */
export function SortHeading({ header, sort, onSort }: { header: string; sort: TableSortState | null; onSort: (column: string) => void }) {
  const direction = sort?.column === header ? sort.direction : 'none';
  return (
    <HeadingButton type="button" onClick={() => onSort(header)}>
      {header}
      <span aria-hidden="true" style={{ opacity: direction === 'none' ? 0.4 : 1 }}>
        {ARROWS[direction]}
      </span>
    </HeadingButton>
  );
}

// a phone shows each row as a card, without the headings: this stands in for them there, and only there
const Picker = styled.div`
  display: none;
  ${NARROW_SCREEN} {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 8px;
  }
`;

/** "Sort by" a column, and the order, for the phone's cards. */
export function SortPicker({
  columns,
  sort,
  onChange,
}: {
  columns: readonly string[];
  sort: TableSortState | null;
  onChange: (sort: TableSortState) => void;
}) {
  const direction = sort?.direction ?? 'ascending';
  return (
    <Picker>
      <FieldLabel>
        Sort by
        <Select value={sort?.column ?? ''} onChange={(event) => onChange({ column: event.target.value, direction })}>
          {sort ? null : <option value="">As listed</option>}
          {columns.map((column) => (
            <option key={column} value={column}>
              {column}
            </option>
          ))}
        </Select>
      </FieldLabel>
      <FieldLabel>
        Order
        <Select
          value={direction}
          disabled={!sort}
          onChange={(event) => sort && onChange({ ...sort, direction: event.target.value as SortDirection })}
        >
          <option value="ascending">Ascending</option>
          <option value="descending">Descending</option>
        </Select>
      </FieldLabel>
    </Picker>
  );
}
