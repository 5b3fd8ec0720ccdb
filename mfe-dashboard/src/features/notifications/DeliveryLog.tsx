import { useState } from 'react';
import styled from 'styled-components';
import { apiErrorMessage, useGetNotificationDeliveriesQuery, useRetryNotificationDeliveryMutation } from '@cbh/api-client';
import {
  ALL_NOTIFICATION_EVENTS,
  breakerPath,
  DELIVERY_STATUS_LABELS,
  DELIVERY_STATUSES,
  isDomainEvent,
  NOTIFICATION_EVENT_LABELS,
  type ChannelView,
  type DeliveryStatus,
  type DeliveryView,
} from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Button, FieldLabel, Muted, ResponsiveTable, Select, toast, VisuallyHidden, When, type TableColumn } from '@cbh/ui';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';
import { LoadedList, NewestOlderPager, POLL_MS, Section } from '../shared/section-parts';

const Filters = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(200px, 100%), 1fr));
  gap: 12px;
  margin-bottom: 16px;
`;

/** An empty page of the log, and the action that shows deliveries again when filters hide them all. */
const EmptyLog = styled.div`
  display: grid;
  justify-items: start;
  gap: 12px;
`;

const Small = styled(Muted)`
  font-size: 12px;
`;

/** An error can be a long line from the receiver: it wraps inside its column. */
const ErrorText = styled.span`
  display: block;
  max-width: 220px;
  font-size: 13px;
  overflow-wrap: anywhere;
`;

interface Filter {
  channelId: string;
  event: string;
  status: string;
}
const NO_FILTER: Filter = { channelId: '', event: '', status: '' };

function RetryButton({ delivery }: { delivery: DeliveryView }) {
  const [retry, { isLoading }] = useRetryNotificationDeliveryMutation();
  const run = async () => {
    try {
      await retry(delivery.id).unwrap();
      toast({ title: 'Retry Queued', description: `${delivery.subject} to ${delivery.channelName} is sent again.` });
    } catch (error) {
      toast({ title: 'Error', description: apiErrorMessage(error) ?? 'Failed to retry the delivery.', variant: 'destructive' });
    }
  };
  return (
    <Button $variant="outline" onClick={run} disabled={isLoading}>
      {isLoading ? 'Retrying...' : 'Retry'}
      <VisuallyHidden> {delivery.subject}</VisuallyHidden>
    </Button>
  );
}

/** A subject's link: a finger's target (WCAG 2.5.8) in a row of text. */
const SubjectLink = styled(Link)`
  display: inline-block;
  min-height: 24px;
`;

const dash = <Muted>—</Muted>;

/**
 * The log's columns, the lesser ones giving way as it narrows (a card per delivery on a phone). `breakerLinks`: a
 * breaker event's subject links to the breaker's page.
 */
function columnsOf(breakerLinks: boolean): readonly TableColumn<DeliveryView>[] {
  return [
    // deliveries come seconds apart: the time to the second is on hover or tap
    { header: 'Time', cell: (delivery) => <When at={delivery.occurredAt} />, nowrap: true },
    { header: 'Event', cell: (delivery) => NOTIFICATION_EVENT_LABELS[delivery.event] },
    {
      header: 'Subject',
      cell: (delivery) =>
        breakerLinks && delivery.breakerId !== null ? (
          <SubjectLink to={breakerPath(delivery.breakerId)}>{delivery.subject}</SubjectLink>
        ) : (
          delivery.subject
        ),
    },
    { header: 'Channel', cell: (delivery) => delivery.channelName, priority: 2 },
    { header: 'Rule', cell: (delivery) => delivery.ruleName ?? dash, priority: 3 },
    {
      header: 'Status',
      cell: (delivery) => (
        <>
          <DeliveryStatusBadge status={delivery.status} />
          {delivery.status === 'pending' && delivery.nextAttemptAt ? (
            <Small>
              next try <When at={delivery.nextAttemptAt} />
            </Small>
          ) : null}
        </>
      ),
    },
    { header: 'Attempts', cell: (delivery) => delivery.attempts, priority: 3 },
    { header: 'HTTP', cell: (delivery) => delivery.statusCode ?? dash, priority: 3 },
    {
      header: 'Duration',
      cell: (delivery) => (delivery.durationMs === null ? dash : `${delivery.durationMs} ms`),
      priority: 3,
      nowrap: true,
    },
    { header: 'Last error', cell: (delivery) => (delivery.lastError ? <ErrorText>{delivery.lastError}</ErrorText> : dash), priority: 2 },
  ];
}

/** One of the log's filters: `all` (no filter), or one of `choices`, each a value and its label. */
function FilterSelect({
  label,
  all,
  value,
  onChange,
  choices,
}: {
  label: string;
  all: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  choices: readonly (readonly [value: string | number, label: string])[];
}) {
  return (
    <FieldLabel>
      {label}
      <Select value={value} onChange={onChange}>
        <option value="">{all}</option>
        {choices.map(([choice, text]) => (
          <option key={choice} value={choice}>
            {text}
          </option>
        ))}
      </Select>
    </FieldLabel>
  );
}

/**
 * Every delivery, newest first, a page at a time; read again every few seconds, so a delivery's outcome appears
 * by itself. Domain events are offered as a filter to holders of domain_management only (the API hides them from
 * others). With `breakerLinks` (circuit_breaker_view), a breaker event's subject links to the breaker's page, as the
 * notification itself does, by the id the event carries (agents' breakers share names across services); a breaker
 * deleted since opens as "Circuit breaker not found", as the notification's own link does.
 */
export function DeliveryLog({
  channels,
  domainEvents,
  breakerLinks,
}: {
  channels: readonly ChannelView[];
  domainEvents: boolean;
  breakerLinks: boolean;
}) {
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  // the cursor of the page shown: undefined for the newest
  const [before, setBefore] = useState<string | undefined>();
  const deliveries = useGetNotificationDeliveriesQuery(
    {
      channelId: filter.channelId || undefined,
      event: filter.event || undefined,
      status: (filter.status || undefined) as DeliveryStatus | undefined,
      before,
    },
    { pollingInterval: POLL_MS, skipPollingIfUnfocused: true },
  );
  const choose = (key: keyof Filter) => (event: { target: { value: string } }) => {
    setFilter((current) => ({ ...current, [key]: event.target.value }));
    setBefore(undefined);
  };
  const filtered = Object.values(filter).some(Boolean);
  const clearFilters = () => {
    setFilter(NO_FILTER);
    setBefore(undefined);
  };

  return (
    <Section
      id="delivery-log-title"
      title="Delivery log"
      description="Every notification sent, retried, muted or held back, newest first. A failed one can be sent again."
    >
      <Filters role="group" aria-label="Delivery filters">
        <FilterSelect
          label="Channel"
          all="All channels"
          value={filter.channelId}
          onChange={choose('channelId')}
          choices={channels.map((channel) => [channel.id, channel.name] as const)}
        />
        <FilterSelect
          label="Event"
          all="All events"
          value={filter.event}
          onChange={choose('event')}
          choices={ALL_NOTIFICATION_EVENTS.filter((event) => domainEvents || !isDomainEvent(event)).map(
            (event) => [event, NOTIFICATION_EVENT_LABELS[event]] as const,
          )}
        />
        <FilterSelect
          label="Status"
          all="All statuses"
          value={filter.status}
          onChange={choose('status')}
          choices={DELIVERY_STATUSES.map((status) => [status, DELIVERY_STATUS_LABELS[status]] as const)}
        />
      </Filters>
      <LoadedList query={deliveries} what="deliveries">
        {(page) => (
          <>
            {page.items.length === 0 ? (
              <EmptyLog>
                <Muted>
                  {filtered ? 'No delivery matches these filters.' : before ? 'No older deliveries.' : 'Nothing has been sent yet.'}
                </Muted>
                {filtered ? (
                  <Button $variant="outline" onClick={clearFilters}>
                    Clear filters
                  </Button>
                ) : null}
              </EmptyLog>
            ) : (
              <ResponsiveTable
                region
                label="Deliveries"
                rows={page.items}
                rowKey={(delivery) => delivery.id}
                rowTestId={(delivery) => `delivery-row-${delivery.id}`}
                columns={columnsOf(breakerLinks)}
                inline={(delivery) => (delivery.status === 'failed' ? <RetryButton delivery={delivery} /> : null)}
              />
            )}
            <NewestOlderPager before={before} next={page.nextBefore} onPage={setBefore} />
          </>
        )}
      </LoadedList>
    </Section>
  );
}
