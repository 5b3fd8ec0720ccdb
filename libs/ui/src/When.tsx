import { useState } from 'react';
import styled from 'styled-components';
import { formatExactTime, formatRelativeTime } from './format';

const Moment = styled.time`
  cursor: help;
  text-decoration: underline dotted;
  text-underline-offset: 3px;
  white-space: nowrap;
`;

/**
 * The one way the screens show a moment: relative ("8 minutes ago"), with the exact time in the reader's time zone on
 * hover (the title) and on a tap or Enter (shown beside it, for phones, where nothing hovers). `never` is what an
 * absent moment reads as.
 *
 * The exact time is written when it is first asked for — the pointer over it, focus on it, a tap — not with the words:
 * it needs an Intl.DateTimeFormat with the time zone's name, whose first use costs Chromium 26–44 ms, and a page's
 * first render would pay it for a title nobody has looked at yet. The title is in place before the browser shows it.
 */
export function When({ at, never = 'Never' }: { at: string | number | null | undefined; never?: string }) {
  const [asked, setAsked] = useState(false);
  const [exact, setExact] = useState(false);
  if (at === null || at === undefined) return <>{never}</>;
  const iso = new Date(at).toISOString();
  const full = asked || exact ? formatExactTime(iso) : undefined;
  const ask = () => setAsked(true);
  return (
    <Moment
      dateTime={iso}
      title={full}
      tabIndex={0}
      onPointerEnter={ask}
      onFocus={ask}
      onClick={() => setExact((shown) => !shown)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') setExact((shown) => !shown);
      }}
    >
      {formatRelativeTime(iso)}
      {exact ? ` (${full})` : null}
    </Moment>
  );
}
