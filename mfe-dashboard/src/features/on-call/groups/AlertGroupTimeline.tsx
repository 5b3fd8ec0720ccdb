import type { AlertGroupEntryKind, AlertGroupEntryView, AuthUser } from '@cbh/contracts';
import { Card, Dot, formatExactTime, Muted, SectionTitle, theme } from '@cbh/ui';
import { TimelineList, TimelineText } from '../../shared/timeline-list';
import { SubjectName } from './SubjectName';

/** A dot beside each entry, in the colour of what it did to the group (the words say it too). */
const KIND_COLORS: Record<AlertGroupEntryKind, string> = {
  opened: theme.colors.open,
  event: theme.colors.orange,
  caused: theme.colors.orange,
  step: theme.colors.primary,
  acknowledged: theme.colors.yellow,
  unacknowledged: theme.colors.open,
  silenced: theme.colors.grey,
  unsilenced: theme.colors.open,
  resolved: theme.colors.success,
  escalation_ended: theme.colors.grey,
};

/** Entries come seconds apart: the day, and the time to the second, on the reader's clock (one formatter, made once). */
const ENTRY_TIME = new Intl.DateTimeFormat('en', {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const entryTime = (at: string) => ENTRY_TIME.format(new Date(at));

/**
 * What happened to the group, oldest first: each event that joined it (a `caused` one from a subject depending on
 * this one, linked to that subject's page), each step that paged someone, and who acknowledged, silenced or resolved it.
 */
export function AlertGroupTimeline({ entries, user }: { entries: readonly AlertGroupEntryView[]; user: AuthUser }) {
  return (
    <Card aria-labelledby="group-timeline-title">
      <SectionTitle id="group-timeline-title">Timeline</SectionTitle>
      {entries.length === 0 ? (
        <Muted>Nothing has happened to it yet.</Muted>
      ) : (
        <TimelineList aria-label="Timeline, oldest first">
          {entries.map((entry) => (
            <li key={entry.id} data-testid={`timeline-entry-${entry.id}`}>
              <time dateTime={entry.at} title={formatExactTime(entry.at)}>
                {entryTime(entry.at)}
              </time>
              <TimelineText>
                <Dot $color={KIND_COLORS[entry.kind]} aria-hidden />
                {entry.text}
                {entry.kind === 'caused' && entry.subject ? (
                  <Muted as="span">
                    {' '}
                    (from <SubjectName subject={entry.subject} user={user} />)
                  </Muted>
                ) : null}
              </TimelineText>
            </li>
          ))}
        </TimelineList>
      )}
    </Card>
  );
}
