import styled from 'styled-components';
import type { ScheduleView } from '@cbh/contracts';
import { SpreadRow, theme } from '@cbh/ui';
import { termsAndValues } from '../../shared/figure-styles';
import { RowButtons } from '../../shared/records-section';
import { overridesText, rotationText, wallTimeNow } from './schedule-text';
import { personText } from './shift-days';
import { ShiftCalendar } from './ShiftCalendar';

const Item = styled.article`
  display: grid;
  gap: 12px;
  min-width: 0;
  padding: 16px;
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  h3 {
    font-size: 16px;
    overflow-wrap: anywhere;
  }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(200px, 100%), 1fr));
  gap: 8px 16px;
  margin: 0;
  font-size: 14px;
  ${termsAndValues}
  dd {
    overflow-wrap: anywhere;
  }
`;

const Lines = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
`;

/**
 * One schedule: who is on call now, its zone, rotations and overrides, and its next two weeks; Edit and Delete for
 * holders of circuit_breaker_admin (`editing`).
 */
export function ScheduleCard({
  schedule,
  myEmail,
  editing,
}: {
  schedule: ScheduleView;
  myEmail?: string;
  editing?: { edit: () => void; delete: () => void };
}) {
  const titleId = `schedule-${schedule.id}-title`;
  return (
    <Item aria-labelledby={titleId} data-testid={`schedule-${schedule.id}`}>
      <SpreadRow>
        <h3 id={titleId}>{schedule.name}</h3>
        {editing ? <RowButtons name={schedule.name} onEdit={editing.edit} onDelete={editing.delete} /> : null}
      </SpreadRow>
      <Facts>
        <div>
          <dt>On call now</dt>
          <dd>{personText(schedule.onCallNow)}</dd>
        </div>
        <div>
          <dt>Time zone</dt>
          <dd>{schedule.timeZone}</dd>
        </div>
        <div>
          <dt>Rotations</dt>
          <dd>
            {schedule.rotations.length === 0 ? (
              'None'
            ) : (
              <Lines>
                {schedule.rotations.map((rotation, index) => (
                  <li key={index}>{rotationText(rotation)}</li>
                ))}
              </Lines>
            )}
          </dd>
        </div>
        <div>
          <dt>Overrides</dt>
          <dd>{overridesText(schedule, wallTimeNow(schedule.timeZone))}</dd>
        </div>
      </Facts>
      <ShiftCalendar scheduleId={schedule.id} name={schedule.name} timeZone={schedule.timeZone} myEmail={myEmail} />
    </Item>
  );
}
