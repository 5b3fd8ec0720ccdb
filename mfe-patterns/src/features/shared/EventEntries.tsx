import { Badge, Muted, When } from '@cbh/ui';
import { Entry, EntryList } from './demo-styles';

/** What an event list shows of each event; the CQRS and event-sourcing simulations' events both have it. */
export interface ListedEvent {
  id: string;
  aggregateId: string;
  eventType: string;
  eventData: object;
  timestamp: number;
  version: number;
}

/** Appended events, oldest first: version, type, aggregate, data and time, as the CQRS and event-sourcing pages list them. */
export function EventEntries({ events, label }: { events: readonly ListedEvent[]; label?: string }) {
  return (
    <EntryList aria-label={label}>
      {events.map((event) => (
        <Entry key={event.id}>
          <Badge>v{event.version}</Badge>
          <strong>{event.eventType}</strong>
          <span>{event.aggregateId}</span>
          <code>{JSON.stringify(event.eventData)}</code>
          <Muted as="span">
            <When at={event.timestamp} />
          </Muted>
        </Entry>
      ))}
    </EntryList>
  );
}
