import { calendarSpan, pieceTimeText, shiftDays } from './shift-days';

const ANA = { id: 'a', email: 'ana@example.com', name: null };
const BOB = { id: 'b', email: 'bob@example.com', name: null };
// the reader's own wall clock, whatever zone the tests run in
const local = (day: number, hour = 0, minute = 0) => new Date(2026, 10, day, hour, minute);
const iso = (day: number, hour = 0) => local(day, hour).toISOString();

it('asks for two weeks from the reader’s midnight today', () => {
  expect(calendarSpan(local(29, 13, 45))).toEqual({ from: iso(29), to: iso(29 + 14) });
});

it('cuts shifts at the reader’s midnights: a long shift reads as whole days, a hand-over as two pieces of its day', () => {
  const days = shiftDays(
    [
      { start: iso(28, 9), end: iso(30, 9), user: ANA },
      { start: iso(30, 9), end: iso(30, 17), user: BOB },
      { start: iso(30, 17), end: iso(40), user: null },
    ],
    local(29),
    3,
  );
  const read = days.map(({ pieces }) => pieces.map((piece) => `${pieceTimeText(piece)} ${piece.user?.email ?? 'nobody'}`));
  expect(read).toEqual([
    ['All day ana@example.com'],
    ['00:00–09:00 ana@example.com', '09:00–17:00 bob@example.com', '17:00–24:00 nobody'],
    ['All day nobody'],
  ]);
  expect(days.map(({ day }) => day.getTime())).toEqual([local(29).getTime(), local(30).getTime(), local(31).getTime()]);
});
