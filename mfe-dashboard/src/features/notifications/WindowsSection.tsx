import styled from 'styled-components';
import { useDeleteMaintenanceWindowMutation, useGetMaintenanceWindowsQuery } from '@cbh/api-client';
import type { MaintenanceWindowView } from '@cbh/contracts';
import { Badge, formatExactTime, Muted, theme, When } from '@cbh/ui';
import { WindowDialog } from './lazy-dialogs';
import { windowScopeText } from './notification-text';
import { RecordsSection, RowButtons } from '../shared/records-section';

const COLUMNS = ['Name', 'When', 'Repeats', 'Mutes', 'Now', 'Actions'];

/** The start, and under it how long the window lasts, never broken inside. */
const Period = styled.span`
  display: grid;
  white-space: nowrap;
`;

/** How long a window lasts, '1 h 30 min': its start says when (both exact on hover), this how long. */
export function lengthText(window: Pick<MaintenanceWindowView, 'startsAt' | 'endsAt'>): string {
  const minutes = Math.max(0, Math.round((Date.parse(window.endsAt) - Date.parse(window.startsAt)) / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  return [days ? `${days} d` : '', hours ? `${hours} h` : '', rest || minutes === 0 ? `${rest} min` : ''].filter(Boolean).join(' ');
}

/** Whether a window that does not mute now is still to come or over for good (a weekly one comes back). */
function idleText(window: MaintenanceWindowView): string {
  return !window.repeatWeekly && Date.parse(window.endsAt) < Date.now() ? 'Over' : 'Scheduled';
}

/**
 * The maintenance windows, in the reader's time zone, with the ones muting now marked Active; `domainAccess`
 * (domain_management): the add form lists the domains.
 */
export function WindowsSection({ domainAccess }: { domainAccess: boolean }) {
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
      empty="No maintenance windows: every notification is sent as its rules say."
      table={{ label: 'Windows', minWidth: 860, columns: COLUMNS }}
      row={(window, editing) => (
        <tr data-testid={`window-row-${window.id}`}>
          <td>{window.name}</td>
          <td>
            <Period>
              <When at={window.startsAt} />
              <Muted as="span" title={`until ${formatExactTime(window.endsAt)}`}>
                for {lengthText(window)}
              </Muted>
            </Period>
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
      dialog={(_window, close) => <WindowDialog domainAccess={domainAccess} onClose={close} />}
      deletion={{
        what: 'maintenance window',
        consequence: () => 'What it muted is notified again.',
        remove: (window) => remove(window.id).unwrap(),
      }}
    />
  );
}
