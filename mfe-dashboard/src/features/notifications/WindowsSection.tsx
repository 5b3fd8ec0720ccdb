import { Suspense, useState } from 'react';
import styled from 'styled-components';
import { useDeleteMaintenanceWindowMutation, useGetMaintenanceWindowsQuery } from '@cbh/api-client';
import type { MaintenanceWindowView } from '@cbh/contracts';
import { Badge, Button, DataTable, formatDateTime, Muted, theme, VisuallyHidden } from '@cbh/ui';
import { ConfirmDelete, WindowDialog } from './lazy-dialogs';
import { windowScopeText } from './notification-text';
import { LoadedList, Section } from '../shared/section-parts';

const COLUMNS = ['Name', 'When', 'Repeats', 'Mutes', 'Now', 'Actions'];

/** The start and the end each on a line of its own, never broken inside. */
const When = styled.span`
  display: grid;
  white-space: nowrap;
`;

/** Whether a window that does not mute now is still to come or over for good (a weekly one comes back). */
function idleText(window: MaintenanceWindowView): string {
  return !window.repeatWeekly && Date.parse(window.endsAt) < Date.now() ? 'Over' : 'Scheduled';
}

/** The maintenance windows, in the reader's time zone, with the ones muting now marked Active. */
export function WindowsSection() {
  const windows = useGetMaintenanceWindowsQuery();
  const [remove] = useDeleteMaintenanceWindowMutation();
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<MaintenanceWindowView | null>(null);

  return (
    <Section
      id="maintenance-windows-title"
      title="Maintenance windows"
      description="Planned work: notifications about the breakers and domains a window names are muted while it lasts, and still logged."
      action={<Button onClick={() => setAdding(true)}>Add window</Button>}
    >
      <LoadedList query={windows} what="maintenance windows">
        {(list) =>
          list.length === 0 ? (
            <Muted>No maintenance windows.</Muted>
          ) : (
            <DataTable label="Windows" minWidth={860} columns={COLUMNS}>
              {list.map((window) => (
                <tr key={window.id} data-testid={`window-row-${window.id}`}>
                  <td>{window.name}</td>
                  <td>
                    <When>
                      <time dateTime={window.startsAt}>{formatDateTime(window.startsAt)}</time>
                      <span>
                        to <time dateTime={window.endsAt}>{formatDateTime(window.endsAt)}</time>
                      </span>
                    </When>
                  </td>
                  <td>{window.repeatWeekly ? 'Weekly' : 'Once'}</td>
                  <td>{windowScopeText(window)}</td>
                  <td>{window.active ? <Badge $color={theme.colors.success}>Active</Badge> : <Muted>{idleText(window)}</Muted>}</td>
                  <td>
                    <Button $variant="ghost" onClick={() => setDeleting(window)}>
                      Delete<VisuallyHidden> {window.name}</VisuallyHidden>
                    </Button>
                  </td>
                </tr>
              ))}
            </DataTable>
          )
        }
      </LoadedList>
      <Suspense fallback={null}>
        {adding ? <WindowDialog onClose={() => setAdding(false)} /> : null}
        {deleting ? (
          <ConfirmDelete
            what="maintenance window"
            name={deleting.name}
            consequence="What it muted is notified again."
            remove={() => remove(deleting.id).unwrap()}
            onClose={() => setDeleting(null)}
          />
        ) : null}
      </Suspense>
    </Section>
  );
}
