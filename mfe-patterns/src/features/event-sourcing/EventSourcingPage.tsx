import { useState } from 'react';
import styled from 'styled-components';
import { DEFAULT_AGGREGATE_ID, EventSourcingSimulation, type AggregateRecord, type EventSourcingState } from '@cbh/simulations';
import { Badge, Button, Card, CardGrid, FieldLabel, Muted, Slider, TextInput, When } from '@cbh/ui';
import { Controls, Entry, EntryList } from '../shared/demo-styles';
import { EventEntries } from '../shared/EventEntries';
import { PatternPage } from '../shared/PatternPage';
import { useSimulation } from '../shared/useSimulation';
import { EventTimeline } from './EventTimeline';

const Scroll = styled.div`
  max-height: 420px;
  overflow-y: auto;
`;

const money = (amount: number) => amount.toLocaleString('en', { style: 'currency', currency: 'USD' });

function OrderCard({ record }: { record: AggregateRecord }) {
  const { state } = record;
  return (
    <Card aria-label={`Aggregate ${record.id}`}>
      <strong>{record.id}</strong> <Badge>v{record.version}</Badge>
      <Muted>
        {state.status} · {state.items.length} item(s) · {money(state.amount)}
        {state.trackingNumber ? ` · ${state.carrier} ${state.trackingNumber}` : ''}
      </Muted>
    </Card>
  );
}

function EventStream({ state, engine }: { state: EventSourcingState; engine: EventSourcingSimulation }) {
  const [aggregateId, setAggregateId] = useState(DEFAULT_AGGREGATE_ID);
  return (
    <>
      <Controls>
        <FieldLabel>
          Aggregate ID
          <TextInput value={aggregateId} onChange={(event) => setAggregateId(event.target.value)} maxLength={40} />
        </FieldLabel>
        <Button onClick={() => engine.addItem(aggregateId)}>Add Item</Button>
        <Button $variant="outline" onClick={() => engine.ship(aggregateId)}>
          Ship Order
        </Button>
        <Button $variant="outline" onClick={() => engine.complete(aggregateId)}>
          Complete
        </Button>
      </Controls>
      <Scroll tabIndex={0} role="region" aria-label="Event stream">
        <EventEntries events={state.events} />
      </Scroll>
    </>
  );
}

function Aggregates({ state, engine }: { state: EventSourcingState; engine: EventSourcingSimulation }) {
  return (
    <>
      <Controls>
        <Button onClick={() => engine.rebuildAggregates()}>Rebuild {DEFAULT_AGGREGATE_ID}</Button>
        <Button $variant="outline" onClick={() => engine.createSnapshot(DEFAULT_AGGREGATE_ID)}>
          Create Snapshot
        </Button>
      </Controls>
      <CardGrid>
        {state.aggregates.map((record) => (
          <OrderCard key={record.id} record={record} />
        ))}
      </CardGrid>
    </>
  );
}

function Snapshots({ state }: { state: EventSourcingState }) {
  if (state.snapshots.length === 0) return <Muted>No snapshots created yet. Use aggregate management to create snapshots.</Muted>;
  return (
    <EntryList aria-label="Snapshots">
      {state.snapshots.map((snapshot) => (
        <Entry key={`${snapshot.aggregateId}-${snapshot.timestamp}-${snapshot.version}`}>
          <strong>{snapshot.aggregateId}</strong>
          <Badge>v{snapshot.version}</Badge>
          <span>
            {snapshot.state.status} · {money(snapshot.state.amount)}
          </span>
          <Muted as="span">
            <When at={snapshot.timestamp} />
          </Muted>
        </Entry>
      ))}
    </EntryList>
  );
}

function TimeTravel({ state, engine }: { state: EventSourcingState; engine: EventSourcingSimulation }) {
  const total = state.events.length;
  return (
    <>
      <Controls>
        <Button $variant="outline" onClick={() => engine.travelTo(0)}>
          Beginning
        </Button>
        <Button $variant="outline" onClick={() => engine.travelTo(total)}>
          Current
        </Button>
      </Controls>
      <Slider
        label="Position"
        value={state.position}
        limits={{ min: 0, max: total, step: 1 }}
        onChange={(value) => engine.travelTo(value)}
      />
      <p role="status">
        Viewing state at event {state.position} of {total}
      </p>
      <EventTimeline events={state.events} position={state.position} />
      <CardGrid style={{ marginTop: 16 }}>
        {state.aggregates.length === 0 ? <Muted>Before the first event there is no aggregate.</Muted> : null}
        {state.aggregates.map((record) => (
          <OrderCard key={record.id} record={record} />
        ))}
      </CardGrid>
    </>
  );
}

export function EventSourcingPage() {
  const [state, engine] = useSimulation(() => new EventSourcingSimulation());
  return (
    <PatternPage
      title="Event Sourcing"
      intro={
        <>
          Event sourcing stores what happened, as an append-only stream of events, and derives the current state by replaying it. Use it
          when the history matters as much as the state (audits, time travel, rebuilding new views); it costs replays that grow with the
          stream (snapshots help) and events whose shape must stay readable forever.
        </>
      }
      sectionsLabel="Event sourcing sections"
      figures={{
        'Total events': state.events.length,
        'Active aggregates': state.aggregates.length,
        Snapshots: state.snapshots.length,
        'Timeline position': state.position,
      }}
      sections={[
        { value: 'stream', label: 'Event Stream', content: <EventStream state={state} engine={engine} /> },
        { value: 'aggregates', label: 'Aggregates', content: <Aggregates state={state} engine={engine} /> },
        { value: 'snapshots', label: 'Snapshots', content: <Snapshots state={state} /> },
        { value: 'time-travel', label: 'Time Travel', content: <TimeTravel state={state} engine={engine} /> },
      ]}
    />
  );
}
