import styled from 'styled-components';
import { useDeleteMaintenanceWindowMutation, useGetMaintenanceWindowsQuery } from '@cbh/api-client';
import type { MaintenanceWindowView } from '@cbh/contracts';
import { Badge, formatDateTime, Muted, theme } from '@cbh/ui';
import { WindowDialog } from './lazy-dialogs';
import { windowScopeText } from './notification-text';
import { RecordsSection, RowButtons } from '../shared/records-section';

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

  return (
    <RecordsSection
      id="maintenance-windows-title"
      title="Maintenance windows"
      description="Planned work: notifications about the breakers and domains a window names are muted while it lasts, and still logged."
      addLabel="Add window"
      query={windows}
      what="maintenance windows"
      empty="No maintenance windows."
      table={{ label: 'Windows', minWidth: 860, columns: COLUMNS }}
      row={(window, editing) => (
        <tr data-testid={`window-row-${window.id}`}>
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
            <RowButtons name={window.name} onDelete={() => editing.delete(window)} />
          </td>
        </tr>
      )}
      // windows are added and deleted, not edited
      dialog={(_window, close) => <WindowDialog onClose={close} />}
      deletion={{
        what: 'maintenance window',
        consequence: () => 'What it muted is notified again.',
        remove: (window) => remove(window.id).unwrap(),
      }}
    />
  );
}
