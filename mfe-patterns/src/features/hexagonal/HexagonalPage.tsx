import { useState } from 'react';
import { HexagonalSimulation, portProblem, type HexagonalState, type PortType } from '@cbh/simulations';
import { Badge, Button, Card, CardGrid, FieldLabel, Muted, Select, TextInput, theme, VisuallyHidden, When } from '@cbh/ui';
import { Controls, Entry, EntryList, Reason } from '../shared/demo-styles';
import { PatternPage } from '../shared/PatternPage';
import { useSimulation } from '../shared/useSimulation';

/** The core in the middle, primary ports on the left driving it, secondary ports on the right driven by it. */
function ArchitectureDiagram({ state }: { state: HexagonalState }) {
  const primary = state.ports.filter((port) => port.type === 'primary');
  const secondary = state.ports.filter((port) => port.type === 'secondary');
  const rows = Math.max(primary.length, secondary.length, 1);
  const height = 40 + rows * 44;
  const y = (i: number, count: number) => 20 + ((i + 0.5) * (height - 40)) / count;
  const core = { x: 260, y: height / 2 };
  const box = (x: number, yy: number, label: string, color: string, key: string) => (
    <g key={key}>
      <rect x={x} y={yy - 15} width={170} height={30} rx={6} fill={theme.colors.surface} stroke={color} strokeWidth={2} />
      <text x={x + 85} y={yy + 4} textAnchor="middle" fontSize={12} fill={theme.colors.text}>
        {label}
      </text>
    </g>
  );
  return (
    <svg
      viewBox={`0 0 700 ${height}`}
      width="100%"
      role="img"
      aria-label={`The core with ${primary.length} primary and ${secondary.length} secondary ports`}
    >
      {primary.map((port, i) => (
        <line
          key={`l-${port.id}`}
          x1={180}
          y1={y(i, primary.length)}
          x2={core.x}
          y2={core.y}
          stroke={theme.colors.border}
          strokeWidth={2}
        />
      ))}
      {secondary.map((port, i) => (
        <line
          key={`r-${port.id}`}
          x1={core.x + 180}
          y1={core.y}
          x2={520}
          y2={y(i, secondary.length)}
          stroke={theme.colors.border}
          strokeWidth={2}
        />
      ))}
      <polygon
        points={[0, 1, 2, 3, 4, 5]
          .map((k) => `${core.x + 90 + 80 * Math.cos((Math.PI / 3) * k)},${core.y + 60 * Math.sin((Math.PI / 3) * k)}`)
          .join(' ')}
        fill="#eff6ff"
        stroke={theme.colors.primary}
        strokeWidth={2}
      />
      <text x={core.x + 90} y={core.y + 4} textAnchor="middle" fontSize={13} fontWeight={600} fill={theme.colors.text}>
        Domain core
      </text>
      {primary.map((port, i) => box(10, y(i, primary.length), `${port.name} (in)`, theme.colors.success, port.id))}
      {secondary.map((port, i) => box(520, y(i, secondary.length), `${port.name} (out)`, theme.colors.orange, port.id))}
    </svg>
  );
}

function Ports({ state, engine }: { state: HexagonalState; engine: HexagonalSimulation }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<PortType>('primary');
  const problem = portProblem(name);
  const list = (portType: PortType, title: string) => (
    <Card aria-label={title}>
      <h2 style={{ margin: '0 0 8px', fontSize: 16 }}>{title}</h2>
      <EntryList>
        {state.ports
          .filter((port) => port.type === portType)
          .map((port) => (
            <Entry key={port.id}>
              <strong>{port.name}</strong>
              <Badge $color={portType === 'primary' ? theme.colors.success : theme.colors.orange}>{port.direction}</Badge>
              <Muted as="span">{port.operations.join(', ')}</Muted>
            </Entry>
          ))}
      </EntryList>
    </Card>
  );
  return (
    <>
      <Controls>
        <FieldLabel>
          Port name
          <TextInput value={name} onChange={(event) => setName(event.target.value)} maxLength={40} />
        </FieldLabel>
        <FieldLabel>
          Type
          <Select value={type} onChange={(event) => setType(event.target.value as PortType)}>
            <option value="primary">Primary</option>
            <option value="secondary">Secondary</option>
          </Select>
        </FieldLabel>
        <Button
          disabled={problem !== null}
          onClick={() => {
            engine.addPort(name, type);
            setName('');
          }}
        >
          Add Port
        </Button>
        {problem ? <Reason role="status">{problem}</Reason> : null}
      </Controls>
      <CardGrid>
        {list('primary', 'Primary ports (inbound)')}
        {list('secondary', 'Secondary ports (outbound)')}
      </CardGrid>
    </>
  );
}

function Adapters({ state, engine }: { state: HexagonalState; engine: HexagonalSimulation }) {
  return (
    <CardGrid>
      {state.adapters.map((adapter) => {
        const port = state.ports.find((p) => p.id === adapter.portId);
        return (
          <Card key={adapter.id} aria-label={`${adapter.name} adapter`}>
            <Controls style={{ marginBottom: 8 }}>
              <strong>{adapter.name}</strong>
              <Badge $color={adapter.status === 'active' ? theme.colors.success : theme.colors.grey} data-testid="adapter-status">
                {adapter.status}
              </Badge>
            </Controls>
            <Muted>
              {adapter.type} adapter on {port?.name ?? adapter.portId} · last activity <When at={adapter.lastActivity} never="never" />
            </Muted>
            <details style={{ margin: '8px 0' }}>
              <summary>Configuration</summary>
              <code>{JSON.stringify(adapter.configuration)}</code>
            </details>
            <Button $variant="outline" onClick={() => engine.toggleAdapter(adapter.id)}>
              Toggle<VisuallyHidden> {adapter.name}</VisuallyHidden>
            </Button>
          </Card>
        );
      })}
    </CardGrid>
  );
}

function Operations({ state }: { state: HexagonalState }) {
  if (state.operations.length === 0) return <Muted>No operations yet: one runs every 3 seconds through an active adapter.</Muted>;
  return (
    <EntryList aria-label="Operations">
      {state.operations.map((operation) => (
        <Entry key={operation.id}>
          <strong>{operation.name}</strong>
          <span>
            {operation.adapterUsed} → {operation.portUsed}
          </span>
          <Badge $color={operation.status === 'success' ? theme.colors.success : theme.colors.destructive}>
            {operation.error ?? 'success'}
          </Badge>
          <span>{operation.duration} ms</span>
          <Muted as="span">
            <When at={operation.timestamp} never="never" />
          </Muted>
        </Entry>
      ))}
    </EntryList>
  );
}

export function HexagonalPage() {
  const [state, engine] = useSimulation(
    () => new HexagonalSimulation(),
    (hex) => hex.start(),
  );
  const active = state.adapters.filter((adapter) => adapter.status === 'active').length;
  return (
    <PatternPage
      title="Hexagonal Architecture"
      intro={
        <>
          Ports and adapters keep the domain core free of technology: the core talks to ports, and adapters plug a web framework, a database
          or a message broker into them. Use it when the core must outlive its infrastructure or be tested without it; it costs an interface
          and an adapter for every way in and out.
        </>
      }
      sectionsLabel="Hexagonal architecture sections"
      figures={{
        Ports: state.ports.length,
        'Active adapters': `${active} of ${state.adapters.length}`,
        Operations: state.counts.operations,
        'Failed operations': state.counts.failed,
      }}
      sections={[
        { value: 'architecture', label: 'Architecture', content: <ArchitectureDiagram state={state} /> },
        { value: 'ports', label: 'Ports', content: <Ports state={state} engine={engine} /> },
        { value: 'adapters', label: 'Adapters', content: <Adapters state={state} engine={engine} /> },
        { value: 'operations', label: 'Operations', content: <Operations state={state} /> },
      ]}
    />
  );
}
