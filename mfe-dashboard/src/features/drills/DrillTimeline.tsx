import type { DrillTimelineEntry, DrillTimelineKind } from '@cbh/contracts';
import { Card, Dot, formatExactTime, Muted, SectionTitle, theme } from '@cbh/ui';
import { TimelineList, TimelineText } from '../shared/timeline-list';

/** A dot beside each entry, in the colour of what it tells (the words say it too). */
const KIND_COLORS: Record<DrillTimelineKind, string> = {
  started: theme.colors.primary,
  step_started: theme.colors.primary,
  fault_sent: theme.colors.grey,
  fault_applied: theme.colors.orange,
  fault_refused: theme.colors.destructive,
  transition: theme.colors.yellow,
  notification: theme.colors.grey,
  expectation_met: theme.colors.success,
  expectation_missed: theme.colors.destructive,
  stopped: theme.colors.grey,
  finished: theme.colors.grey,
};

/** Entries come seconds apart: the time to the second, on the reader's clock (one formatter, made once). */
const ENTRY_TIME = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
const entryTime = (at: string) => ENTRY_TIME.format(new Date(at));

/**
 * What happened during the drill, oldest first: each step starting, each fault reaching (or refused by) an instance,
 * each transition of the breakers, the notifications it raised, each expectation judged, and how it ended.
 */
export function DrillTimeline({ entries }: { entries: readonly DrillTimelineEntry[] }) {
  const ordered = [...entries].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return (
    <Card aria-labelledby="drill-timeline-title">
      <SectionTitle id="drill-timeline-title">Timeline</SectionTitle>
      {ordered.length === 0 ? (
        <Muted>Nothing has happened yet.</Muted>
      ) : (
        <TimelineList aria-label="Timeline, oldest first">
          {ordered.map((entry, index) => (
            // entries have no ids; the list only grows at its end while the page is open
            <li key={index} data-testid="timeline-entry">
              <time dateTime={entry.at} title={formatExactTime(entry.at)}>
                {entryTime(entry.at)}
              </time>
              <TimelineText>
                <Dot $color={KIND_COLORS[entry.kind]} aria-hidden />
                {entry.text}
                {entry.instance ? <Muted as="span"> (instance {entry.instance})</Muted> : null}
              </TimelineText>
            </li>
          ))}
        </TimelineList>
      )}
    </Card>
  );
}
