import { Fragment, lazy, Suspense, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { Button, DataTable, Muted, VisuallyHidden } from '@cbh/ui';
import { LoadedList, RowActions, Section, type ListQuery } from './section-parts';

// fetched with the first delete asked, with the overlays entry of @cbh/ui it draws on, not with the page
const ConfirmDelete = lazy(() => import('./ConfirmDelete').then((module) => ({ default: module.ConfirmDelete })));

/** The row's buttons stay on one line: the table scrolls sideways on a narrow screen instead. */
const Buttons = styled(RowActions)`
  flex-wrap: nowrap;
  white-space: nowrap;
`;

/** An empty list's words, and under them the action that fills it. */
const Empty = styled.div`
  display: grid;
  justify-items: start;
  gap: 12px;
`;

/**
 * A row's Edit (when it can be edited) and Delete, each named with the row's name for screen readers ("Delete
 * On-call"); `children` go first (a channel's Send test).
 */
export function RowButtons({
  name,
  onEdit,
  onDelete,
  children,
}: {
  name: string;
  onEdit?: () => void;
  onDelete: () => void;
  children?: ReactNode;
}) {
  const which = <VisuallyHidden> {name}</VisuallyHidden>;
  return (
    <Buttons>
      {children}
      {onEdit ? (
        <Button $variant="outline" onClick={onEdit}>
          Edit{which}
        </Button>
      ) : null}
      <Button $variant="ghost" onClick={onDelete}>
        Delete{which}
      </Button>
    </Buttons>
  );
}

/** What a row's buttons open. */
export interface RowEditing<Row> {
  edit: (row: Row) => void;
  delete: (row: Row) => void;
}

type Editing<Row> = { kind: 'add' } | { kind: 'edit' | 'delete'; row: Row } | null;

/**
 * A card of records in a table: Add beside its title (in the empty state while there are none), and per row what `row` draws (RowButtons opening its edit
 * dialog and its delete confirmation). The dialogs open from state, one at a time; a delete asks first, then says how
 * it went.
 */
export function RecordsSection<Row extends { id: number | string; name: string }>({
  id,
  title,
  description,
  addLabel,
  query,
  what,
  empty,
  table,
  row,
  dialog,
  deletion,
  readOnly = false,
}: {
  id: string;
  title: string;
  description: string;
  /** The Add button's text ('Add channel'). */
  addLabel: string;
  query: ListQuery<readonly Row[]>;
  /** The records, as the loading and error texts name them ('scrape targets'). */
  what: string;
  /** Said instead of the table while there are none. */
  empty: string;
  table: { label: string; minWidth: number; columns: readonly string[] };
  row: (row: Row, editing: RowEditing<Row>) => ReactNode;
  /** The add dialog (no row), or the edit dialog of `row`. */
  dialog: (row: Row | undefined, close: () => void) => ReactNode;
  /** What the delete confirmation says: the record's kind ('maintenance window') and what deleting it changes. */
  deletion: { what: string; consequence: (row: Row) => string; remove: (row: Row) => Promise<unknown> };
  /** For readers who may not change the records: no Add (`row` then draws no buttons either). */
  readOnly?: boolean;
}) {
  const [editing, setEditing] = useState<Editing<Row>>(null);
  const close = () => setEditing(null);
  const rowEditing: RowEditing<Row> = {
    edit: (each) => setEditing({ kind: 'edit', row: each }),
    delete: (each) => setEditing({ kind: 'delete', row: each }),
  };

  const add = readOnly ? null : <Button onClick={() => setEditing({ kind: 'add' })}>{addLabel}</Button>;
  // with none yet, the one action that fills the list stands in the empty state instead of beside the title
  const none = query.data !== undefined && !query.isError && query.data.length === 0;

  return (
    <Section id={id} title={title} description={description} action={none ? undefined : add}>
      <LoadedList query={query} what={what}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <Muted>{empty}</Muted>
              {add}
            </Empty>
          ) : (
            <DataTable label={table.label} minWidth={table.minWidth} columns={table.columns}>
              {list.map((each) => (
                <Fragment key={each.id}>{row(each, rowEditing)}</Fragment>
              ))}
            </DataTable>
          )
        }
      </LoadedList>
      <Suspense fallback={null}>
        {editing?.kind === 'add' ? dialog(undefined, close) : null}
        {editing?.kind === 'edit' ? <Fragment key={editing.row.id}>{dialog(editing.row, close)}</Fragment> : null}
        {editing?.kind === 'delete' ? (
          <ConfirmDelete
            what={deletion.what}
            name={editing.row.name}
            consequence={deletion.consequence(editing.row)}
            remove={() => deletion.remove(editing.row)}
            onClose={close}
          />
        ) : null}
      </Suspense>
    </Section>
  );
}
