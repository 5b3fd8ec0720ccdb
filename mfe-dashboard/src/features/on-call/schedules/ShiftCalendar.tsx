import { useState } from 'react';
import styled from 'styled-components';
import { useGetScheduleShiftsQuery } from '@cbh/api-client';
import { DataTable, Muted, NARROW_SCREEN, theme } from '@cbh/ui';
import { LoadedList } from '../../shared/section-parts';
import { viewerTimeZone } from './time-zones';
import { calendarSpan, CALENDAR_DAYS, dayText, personText, pieceTimeText, shiftDays } from './shift-days';

/*
 * The days in a column of one width (the table laid out by its header row), so that the calendars of several schedules
 * line up; a long e-mail wraps inside its cell. On a phone the day takes two lines ("Sun," over "Nov 29") and each time
 * stands above its person, which leaves the person most of the width: the table fits rather than hiding names past
 * its edge.
 */
const Frame = styled.div`
  table {
    table-layout: fixed;
  }
  thead th:first-child {
    width: 8.5em;
  }
  ${NARROW_SCREEN} {
    th,
    td {
      padding: 8px;
    }
    thead th:first-child {
      width: 5.5em;
    }
    th[scope='row'] {
      white-space: normal;
    }
  }
`;

// in the size of the schedule's facts above it and of the table below
const Caption = styled(Muted)`
  font-size: 14px;
`;

const Pieces = styled.ul`
  margin: 0;
  padding: 0;
  list-style: none;
  display: grid;
  gap: 2px;
  li {
    overflow-wrap: anywhere;
  }
  ${NARROW_SCREEN} {
    gap: 6px;
  }
`;

const Time = styled.span`
  display: inline-block;
  min-width: 96px;
  font-variant-numeric: tabular-nums;
  color: ${theme.colors.muted};
  ${NARROW_SCREEN} {
    display: block;
  }
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
export function ShiftCalendar({
  scheduleId,
  name,
  timeZone,
  myEmail,
}: {
  scheduleId: string;
  /** the schedule's, which names the calendar apart from the other schedules' */
  name: string;
  timeZone: string;
  myEmail?: string;
}) {
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
          <Caption>{caption}</Caption>
          <Frame>
            <DataTable label={`${name}: shifts of the next ${CALENDAR_DAYS} days`} columns={['Day', 'On call']} minWidth={240}>
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
          </Frame>
        </>
      )}
    </LoadedList>
  );
}
