import { useState } from 'react';
import styled from 'styled-components';
import { IMPORT_ACTIONS, IMPORT_KIND_LABELS, type ImportAction, type ImportChange } from '@cbh/contracts';
import { Badge, DataTable, Muted, theme } from '@cbh/ui';
import type { ActionCounts } from './import-summary';

const COLUMNS = ['Kind', 'Name', 'Action', 'Fields'];

/** Badge tones dark enough for white text. */
const ACTION_COLORS: Record<ImportAction, string> = {
  create: theme.colors.success,
  update: theme.colors.primary,
  delete: theme.colors.destructive,
  unchanged: theme.colors.grey,
};

const Counts = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin: 0;
  padding: 0;
  list-style: none;
`;

const Toggle = styled.label`
  display: flex;
  align-items: center;
  gap: 8px;
  font-size: 14px;
`;

export function ActionBadge({ action }: { action: ImportAction }) {
  return <Badge $color={ACTION_COLORS[action]}>{action}</Badge>;
}

/**
 * An import's diff: the counts per action, then a row per item it would create, update or delete. Unchanged items
 * are listed on request only, so that a document of a whole fleet shows its few changes first.
 */
export function ImportChangesTable({ changes, counts }: { changes: readonly ImportChange[]; counts: ActionCounts }) {
  const [showUnchanged, setShowUnchanged] = useState(false);
  const rows = showUnchanged ? changes : changes.filter((change) => change.action !== 'unchanged');
  return (
    <>
      <Counts aria-label="Changes by action">
        {IMPORT_ACTIONS.map((action) => (
          <li key={action}>
            <ActionBadge action={action} /> {counts[action]}
          </li>
        ))}
      </Counts>
      {counts.unchanged > 0 ? (
        <Toggle>
          <input type="checkbox" checked={showUnchanged} onChange={(event) => setShowUnchanged(event.target.checked)} />
          Show unchanged items
        </Toggle>
      ) : null}
      {rows.length === 0 ? (
        <Muted role="status">No changes: the hub already matches this document.</Muted>
      ) : (
        <DataTable label="Changes" columns={COLUMNS} minWidth={520}>
          {rows.map((change) => (
            <tr key={`${change.kind} ${change.name}`}>
              <td>{IMPORT_KIND_LABELS[change.kind]}</td>
              <td>{change.name}</td>
              <td>
                <ActionBadge action={change.action} />
              </td>
              <td>{change.fields?.join(', ') ?? ''}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
