import { useState } from 'react';
import {
  COMMAND_TYPES,
  commandProblem,
  CqrsSimulation,
  QUERY_TYPES,
  type CommandType,
  type CqrsState,
  type QueryType,
} from '@cbh/simulations';
import { Badge, Button, FieldLabel, Muted, TextInput, theme, When } from '@cbh/ui';
import { Controls, Entry, EntryList, Reason } from '../shared/demo-styles';
import { EventEntries } from '../shared/EventEntries';
import { PatternPage } from '../shared/PatternPage';
import { useSimulation } from '../shared/useSimulation';

const COMMAND_LABELS: Record<CommandType, string> = {
  CREATE_ORDER: 'Create Order',
  UPDATE_INVENTORY: 'Update Inventory',
  PROCESS_PAYMENT: 'Process Payment',
};
const QUERY_LABELS: Record<QueryType, string> = {
  GET_ORDERS: 'Get Orders',
  GET_INVENTORY: 'Get Inventory',
  GET_ANALYTICS: 'Get Analytics',
};
const STATUS_COLORS = { pending: theme.colors.yellow, executed: theme.colors.success, failed: theme.colors.destructive } as const;

function Commands({ state, engine }: { state: CqrsState; engine: CqrsSimulation }) {
  const [orderId, setOrderId] = useState('order-1');
  const problem = commandProblem(orderId);
  return (
    <>
      <Controls>
        <FieldLabel>
          Order ID
          <TextInput value={orderId} onChange={(event) => setOrderId(event.target.value)} maxLength={40} />
        </FieldLabel>
        {COMMAND_TYPES.map((type) => (
          <Button key={type} disabled={problem !== null} onClick={() => engine.send(type, orderId)}>
            {COMMAND_LABELS[type]}
          </Button>
        ))}
        {problem ? <Reason role="status">{problem}</Reason> : null}
      </Controls>
      {state.commands.length === 0 ? (
        <Muted>No commands yet. Send one above: it is answered after a second.</Muted>
      ) : (
        <EntryList aria-label="Recent commands">
          {state.commands.map((command) => (
            <Entry key={command.id}>
              <strong>{COMMAND_LABELS[command.type]}</strong>
              <code>{JSON.stringify(command.payload)}</code>
              <Badge $color={STATUS_COLORS[command.status]} data-testid="command-status">
                {command.status}
              </Badge>
              <Muted as="span">
                <When at={command.timestamp} />
              </Muted>
            </Entry>
          ))}
        </EntryList>
      )}
    </>
  );
}

function Queries({ state, engine }: { state: CqrsState; engine: CqrsSimulation }) {
  return (
    <>
      <Controls>
        {QUERY_TYPES.map((type) => (
          <Button key={type} $variant="outline" onClick={() => engine.query(type)}>
            {QUERY_LABELS[type]}
          </Button>
        ))}
      </Controls>
      {state.results.length === 0 ? (
        <Muted>No query results yet. Queries read the read model only, and answer in 100–600 ms.</Muted>
      ) : (
        <EntryList aria-label="Recent query results">
          {state.results.map((result) => (
            <Entry key={result.id}>
              <strong>{QUERY_LABELS[result.type]}</strong>
              <code>{JSON.stringify(result.result)}</code>
              <span data-testid="execution-time">{result.executionTime} ms</span>
              <Muted as="span">
                <When at={result.timestamp} />
              </Muted>
            </Entry>
          ))}
        </EntryList>
      )}
    </>
  );
}

function EventStore({ state }: { state: CqrsState }) {
  if (state.events.length === 0) return <Muted>No events yet: each command appends one when it is answered.</Muted>;
  return <EventEntries events={state.events} label="Event store" />;
}

export function CqrsPage() {
  const [state, engine] = useSimulation(() => new CqrsSimulation());
  return (
    <>
      <PatternPage
        title="CQRS"
        intro={
          <>
            Command Query Responsibility Segregation separates the model that changes data from the model that reads it, so each can be
            shaped and scaled for its own work. Use it when reads far outnumber writes or need views the write model cannot give cheaply;
            the price is two models to keep, and reads that lag the writes.
          </>
        }
        sectionsLabel="CQRS sections"
        figures={{
          'Commands executed': state.counts.executed,
          'Commands failed': state.counts.failed,
          Pending: state.counts.pending,
          'Queries answered': state.counts.queries,
        }}
        sections={[
          { value: 'commands', label: 'Commands (Write)', content: <Commands state={state} engine={engine} /> },
          { value: 'queries', label: 'Queries (Read)', content: <Queries state={state} engine={engine} /> },
          { value: 'events', label: 'Event Store', content: <EventStore state={state} /> },
        ]}
      />
    </>
  );
}
