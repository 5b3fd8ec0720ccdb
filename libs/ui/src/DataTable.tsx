/**
 * The one table pattern of the data screens: columns with priorities (the lesser ones give way as the table narrows,
 * the important ones stay), a row's actions in a menu where they do not fit beside its data, a card per row on a
 * phone, and an optional search box and pager for lists the server searches and pages.
 */
import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Muted } from './Card';
import { RowActionsMenu, type RowAction } from './DataTableMenu';
import { Pager, TableSearch, type TablePaging } from './DataTablePaging';
import { SortHeading, SortPicker, useTableSort, type SortValue, type TableSortState } from './DataTableSort';
import { tableCells } from './table-cells';
import { NARROW_SCREEN, theme } from './theme';

export * from './DataTableMenu';
export * from './DataTablePaging';
export * from './DataTableSort';

/**
 * How much a column matters: 1 always shows; 2 gives way where the table is narrower than 640 px; 3 where it is
 * narrower than 900 px. On a phone every column shows again, as a labelled line of the row's card.
 */
export type ColumnPriority = 1 | 2 | 3;

export interface TableColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  priority?: ColumnPriority;
  /** keeps the cell on one line (dates, short figures) */
  nowrap?: boolean;
  /** what the column sorts by: with it, its heading sorts the rows (for lists the browser holds whole, not pages) */
  sortValue?: (row: Row) => SortValue;
}

/** Where each priority gives way: the table's own width, not the window's (it may sit in a narrow card). */
const GIVES_WAY_BELOW_PX: Record<Exclude<ColumnPriority, 1>, number> = { 2: 640, 3: 900 };

const Frame = styled.div`
  container-type: inline-size;
  max-width: 100%;
  overflow-x: auto;
`;

const Grid = styled.table`
  ${tableCells}
  th,
  td {
    padding: 10px;
  }
  td[data-lead] {
    overflow-wrap: anywhere;
  }
  td[data-actions] {
    width: 1%;
    white-space: nowrap;
    text-align: right;
  }
  ${Object.entries(GIVES_WAY_BELOW_PX)
    .map(([priority, px]) => `@container (max-width: ${px}px) { [data-priority='${priority}'] { display: none; } }`)
    .join('\n')}
  ${NARROW_SCREEN} {
    thead {
      display: none;
    }
    &,
    tbody,
    tr {
      display: block;
    }
    tr {
      padding: 12px 14px;
      margin-bottom: 12px;
      border: 1px solid ${theme.colors.border};
      border-radius: ${theme.radius};
      background: ${theme.colors.surface};
    }
    td[data-label] {
      display: grid;
      grid-template-columns: minmax(90px, 35%) minmax(0, 1fr);
      justify-items: start;
      gap: 8px;
      align-items: center;
      padding: 4px 0;
      border: 0;
      white-space: normal;
      overflow-wrap: anywhere;
      text-align: left;
      width: auto;
    }
    td[data-label]::before {
      content: attr(data-label);
      font-weight: 600;
      color: ${theme.colors.muted};
    }
    td[data-label][data-lead] {
      display: block;
      padding-bottom: 8px;
    }
    td[data-label][data-lead]::before,
    td[data-label][data-actions]::before {
      content: none;
    }
    td[data-label][data-actions] {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      padding-top: 8px;
    }
  }
`;

const ActionsCell = styled.span`
  display: inline-flex;
  flex-wrap: nowrap;
  ${NARROW_SCREEN} {
    flex-wrap: wrap;
  }
  align-items: center;
  justify-content: flex-end;
  gap: 8px;
`;

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 8px 16px;
  margin-bottom: 12px;
`;

export interface ResponsiveTableProps<Row> {
  /** names the table (and its search box and pager) */
  label: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** the first column leads the row (its card's title on a phone): make it the one that names the row */
  columns: readonly TableColumn<Row>[];
  /** a row's actions, in a menu named "Actions for <rowName>" */
  actions?: (row: Row) => readonly RowAction[];
  /** a control shown beside the menu (a switch, the one frequent action) */
  inline?: (row: Row) => ReactNode;
  /** names a row in its menu's name */
  rowName?: (row: Row) => string;
  /** what the table says when there are no rows */
  empty?: ReactNode;
  /** the server searches: called with the text once typing pauses */
  onSearch?: (text: string) => void;
  searchLabel?: string;
  /** the server pages */
  paging?: TablePaging;
  /** beside the search box (a filter, a count) */
  toolbar?: ReactNode;
  rowTestId?: (row: Row) => string;
  /** the whole of it (table, or its empty text) is a region named `label`, a place on the page to find it by */
  region?: boolean;
  /** how the rows are sorted first, by a column with a sortValue (as given, unless told) */
  initialSort?: TableSortState;
}

/** A table that fits its frame at every width (see the file's comment). */
export function ResponsiveTable<Row>(props: ResponsiveTableProps<Row>) {
  const { label, rowKey, columns, actions, inline, rowName, empty, onSearch, paging, toolbar, rowTestId, region } = props;
  const hasActions = Boolean(actions || inline);
  const { sort, sorted: rows, setSort, toggle } = useTableSort(props.rows, columns, props.initialSort);
  const sortable = columns.filter((column) => column.sortValue).map((column) => column.header);
  return (
    <div {...(region ? { role: 'region', 'aria-label': label } : {})}>
      {onSearch || toolbar || sortable.length > 0 ? (
        <Toolbar>
          {onSearch ? <TableSearch label={props.searchLabel ?? `Search ${label.toLowerCase()}`} onSearch={onSearch} /> : null}
          {toolbar}
          {sortable.length > 0 && rows.length > 1 ? <SortPicker columns={sortable} sort={sort} onChange={setSort} /> : null}
        </Toolbar>
      ) : null}
      {rows.length === 0 ? (
        <Muted>{empty ?? 'Nothing to show.'}</Muted>
      ) : (
        <Frame>
          <Grid aria-label={label}>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th
                    key={column.header}
                    scope="col"
                    data-priority={column.priority ?? 1}
                    aria-sort={column.sortValue ? (sort?.column === column.header ? sort.direction : 'none') : undefined}
                  >
                    {column.sortValue ? <SortHeading header={column.header} sort={sort} onSort={toggle} /> : column.header}
                  </th>
                ))}
                {hasActions ? (
                  <th scope="col" data-actions>
                    <span>Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={rowKey(row)} data-testid={rowTestId?.(row)}>
                  {columns.map((column, index) => (
                    <td
                      key={column.header}
                      data-label={column.header}
                      data-priority={column.priority ?? 1}
                      data-nowrap={column.nowrap || undefined}
                      data-lead={index === 0 || undefined}
                    >
                      {column.cell(row)}
                    </td>
                  ))}
                  {hasActions ? (
                    <td data-label="Actions" data-actions>
                      <ActionsCell>
                        {inline?.(row)}
                        {actions ? <RowActionsMenu label={`Actions for ${rowName?.(row) ?? rowKey(row)}`} actions={actions(row)} /> : null}
                      </ActionsCell>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </Grid>
        </Frame>
      )}
      {paging ? <Pager label={label} paging={paging} /> : null}
    </div>
  );
}
