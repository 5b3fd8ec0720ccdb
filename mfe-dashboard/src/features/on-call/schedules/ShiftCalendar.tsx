import { useState } from 'react';
import styled from 'styled-components';
import { useGetScheduleShiftsQuery } from '@cbh/api-client';
import { DataTable, Muted, theme } from '@cbh/ui';
import { LoadedList } from '../../shared/section-parts';
import { viewerTimeZone } from './time-zones';
import { calendarSpan, CALENDAR_DAYS, dayText, personText, pieceTimeText, shiftDays } from './shift-days';

const Pieces = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  display: grid;
  gap: 2px;
`;

const Time = styled.span`
  display: inline-block;
  min-width: 96px;
  font-variant-numeric: tabular-nums;
  color: ${theme.colors.muted};
`;

const Gap = styled.span`
  color: ${theme.colors.destructive};
`;

const You = styled.strong`
  font-weight: 600;
`;

/**
 * The next two weeks of a schedule, a row per day of the reader's calendar with who is on call when, in the reader's
 * time (the schedule keeps its own zone, which the caption names). A stretch with nobody on call stands out.
 */
export function ShiftCalendar({ scheduleId, timeZone, myEmail }: { scheduleId: string; timeZone: string; myEmail?: string }) {
  // fixed when the card first shows, so the query's key stays one while it is open
  const [span] = useState(() => calendarSpan());
  const shifts = useGetScheduleShiftsQuery({ id: scheduleId, ...span });
  const here = viewerTimeZone();
  const caption =
    here === timeZone
      ? `The next ${CALENDAR_DAYS} days in ${timeZone}, the schedule's time zone and yours.`
      : `The next ${CALENDAR_DAYS} days in your time (${here}); the schedule keeps ${timeZone}.`;

  return (
    <LoadedList query={shifts} what="shifts">
      {(list) => (
        <>
          <Muted>{caption}</Muted>
          <DataTable label={`Shifts of the next ${CALENDAR_DAYS} days`} columns={['Day', 'On call']} minWidth={280}>
            {shiftDays(list, new Date(span.from)).map(({ day, pieces }) => (
              <tr key={day.toISOString()}>
                <th scope="row">{dayText(day)}</th>
                <td>
                  <Pieces>
                    {pieces.length === 0 ? <li>Nobody</li> : null}
                    {pieces.map((piece) => (
                      <li key={piece.start.toISOString()}>
                        <Time>{pieceTimeText(piece)}</Time>{' '}
                        {!piece.user ? (
                          <Gap>Nobody</Gap>
                        ) : piece.user.email === myEmail ? (
                          <You>{personText(piece.user)} (you)</You>
                        ) : (
                          personText(piece.user)
                        )}
                      </li>
                    ))}
                  </Pieces>
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
    </LoadedList>
  );
}
