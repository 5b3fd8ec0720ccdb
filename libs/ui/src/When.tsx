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
 */
export function When({ at, never = 'Never' }: { at: string | number | null | undefined; never?: string }) {
  const [exact, setExact] = useState(false);
  if (at === null || at === undefined) return <>{never}</>;
  const iso = new Date(at).toISOString();
  const full = formatExactTime(iso);
  return (
    <Moment
      dateTime={iso}
      title={full}
      tabIndex={0}
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
