import { useState, type ReactNode } from 'react';
import {
  DddSimulation,
  MODEL_TYPE_LABELS,
  MODEL_TYPES,
  modelProblem,
  type DddState,
  type DomainModel,
  type ModelType,
} from '@cbh/simulations';
import { Badge, Button, Card, CardGrid, FieldLabel, Muted, Select, TextInput, VisuallyHidden, When } from '@cbh/ui';
import { Tabs } from '@cbh/ui/overlays';
import { Controls, Entry, EntryList, Reason } from '../shared/demo-styles';
import { PatternPage } from '../shared/PatternPage';
import { useSimulation } from '../shared/useSimulation';

function ContextSelect({ state, value, onChange }: { state: DddState; value: string | null; onChange: (id: string | null) => void }) {
  return (
    <FieldLabel>
      Bounded context
      <Select value={value ?? ''} onChange={(event) => onChange(event.target.value || null)}>
        <option value="">Choose a context…</option>
        {state.contexts.map((context) => (
          <option key={context.id} value={context.id}>
            {context.name}
          </option>
        ))}
      </Select>
    </FieldLabel>
  );
}

/** A model's entries of one kind, or the words for none. */
function Items<T>({ items, empty, children }: { items: readonly T[]; empty: string; children: (item: T) => ReactNode }) {
  return items.length > 0 ? <EntryList>{items.map(children)}</EntryList> : <Muted>{empty}</Muted>;
}

function ModelCard({ model, engine }: { model: DomainModel; engine: DddSimulation }) {
  return (
    <Card aria-label={`${model.name} model`}>
      <Controls style={{ marginBottom: 8 }}>
        <strong>{model.name}</strong>
        <Badge>{MODEL_TYPE_LABELS[model.type]}</Badge>
      </Controls>
      <Tabs
        label={`${model.name} details`}
        tabs={[
          {
            value: 'properties',
            label: 'Properties',
            content: (
              <Items items={model.properties} empty="No properties.">
                {(p) => (
                  <Entry key={p.name}>
                    {p.name}: <code>{p.type}</code> {p.required ? <Badge>required</Badge> : null}
                  </Entry>
                )}
              </Items>
            ),
          },
          {
            value: 'methods',
            label: 'Methods',
            content: (
              <Items items={model.methods} empty="No methods.">
                {(m) => (
                  <Entry key={m.name}>
                    <code>
                      {m.name}({m.parameters.join(', ')}): {m.returnType}
                    </code>
                  </Entry>
                )}
              </Items>
            ),
          },
          {
            value: 'invariants',
            label: 'Invariants',
            content: (
              <Items items={model.invariants} empty="No invariants.">
                {(rule) => <Entry key={rule}>{rule}</Entry>}
              </Items>
            ),
          },
          {
            value: 'events',
            label: 'Events',
            content: (
              <Items items={model.events} empty="No events.">
                {(event) => (
                  <Entry key={event}>
                    <strong>{event}</strong>
                    <Button $variant="outline" onClick={() => engine.publish(model.id, event)}>
                      Publish<VisuallyHidden> {event}</VisuallyHidden>
                    </Button>
                  </Entry>
                )}
              </Items>
            ),
          },
        ]}
      />
    </Card>
  );
}

function Contexts({ state, selected, onSelect }: { state: DddState; selected: string | null; onSelect: (id: string | null) => void }) {
  const context = state.contexts.find((c) => c.id === selected);
  return (
    <>
      <Controls>
        <ContextSelect state={state} value={selected} onChange={onSelect} />
      </Controls>
      {!context ? (
        <Muted>Choose a bounded context to see its context map and models.</Muted>
      ) : (
        <>
          <Muted style={{ marginBottom: 12 }}>{context.description}</Muted>
          <h2 style={{ fontSize: 16 }}>Context map</h2>
          <EntryList aria-label="Context map">
            {context.contextMap.map((relation) => (
              <Entry key={`${relation.upstream}-${relation.downstream}`}>
                {relation.upstream} → {relation.downstream} <Badge>{relation.relationship}</Badge>
              </Entry>
            ))}
          </EntryList>
          <h2 style={{ fontSize: 16 }}>Models</h2>
          <CardGrid>
            {context.models.map((model) => (
              <Card key={model.id} aria-label={`${model.name} summary`}>
                <strong>{model.name}</strong> <Badge>{MODEL_TYPE_LABELS[model.type]}</Badge>
                <Muted>
                  {model.properties.length} properties · {model.methods.length} methods · {model.events.length} events
                </Muted>
              </Card>
            ))}
          </CardGrid>
        </>
      )}
    </>
  );
}

function Models({
  state,
  engine,
  selected,
  onSelect,
}: {
  state: DddState;
  engine: DddSimulation;
  selected: string | null;
  onSelect: (id: string | null) => void;
}) {
  const [name, setName] = useState('');
  const [type, setType] = useState<ModelType>('Entity');
  const context = state.contexts.find((c) => c.id === selected);
  const problem = modelProblem(name, selected, context?.models.length);
  return (
    <>
      <Controls>
        <ContextSelect state={state} value={selected} onChange={onSelect} />
        <FieldLabel>
          Model name
          <TextInput value={name} onChange={(event) => setName(event.target.value)} maxLength={40} />
        </FieldLabel>
        <FieldLabel>
          Model type
          <Select value={type} onChange={(event) => setType(event.target.value as ModelType)}>
            {MODEL_TYPES.map((t) => (
              <option key={t} value={t}>
                {MODEL_TYPE_LABELS[t]}
              </option>
            ))}
          </Select>
        </FieldLabel>
        <Button
          disabled={problem !== null}
          onClick={() => {
            engine.addModel(selected, name, type);
            setName('');
          }}
        >
          Add Model
        </Button>
        {problem ? <Reason role="status">{problem}</Reason> : null}
      </Controls>
      {context ? (
        <CardGrid>
          {context.models.map((model) => (
            <ModelCard key={model.id} model={model} engine={engine} />
          ))}
        </CardGrid>
      ) : (
        <Muted>Choose a bounded context to see and add its models.</Muted>
      )}
    </>
  );
}

export function DddPage() {
  const [state, engine] = useSimulation(() => new DddSimulation());
  const [selected, setSelected] = useState<string | null>(null);
  const models = state.contexts.reduce((sum, context) => sum + context.models.length, 0);
  return (
    <PatternPage
      title="Domain-Driven Design"
      intro={
        <>
          Domain-driven design splits a large domain into bounded contexts, each with its own model and a language shared by its developers
          and experts. Use it when the domain is complex and the business rules are the hard part; it costs close work with domain experts
          and translation at every context boundary.
        </>
      }
      sectionsLabel="Domain-driven design sections"
      figures={{
        'Bounded contexts': state.contexts.length,
        'Domain models': models,
        'Published events': state.published,
      }}
      sections={[
        { value: 'contexts', label: 'Bounded Contexts', content: <Contexts state={state} selected={selected} onSelect={setSelected} /> },
        {
          value: 'models',
          label: 'Domain Models',
          content: <Models state={state} engine={engine} selected={selected} onSelect={setSelected} />,
        },
        {
          value: 'language',
          label: 'Ubiquitous Language',
          content: (
            <CardGrid>
              {state.contexts.map((context) => (
                <Card key={context.id} aria-label={`${context.name} language`}>
                  <strong>{context.name}</strong>
                  <dl>
                    {context.ubiquitousLanguage.map((entry) => (
                      <div key={entry.term}>
                        <dt style={{ fontWeight: 600 }}>{entry.term}</dt>
                        <dd style={{ margin: '0 0 8px' }}>{entry.definition}</dd>
                      </div>
                    ))}
                  </dl>
                </Card>
              ))}
            </CardGrid>
          ),
        },
        {
          value: 'events',
          label: 'Domain Events',
          content:
            state.events.length === 0 ? (
              <Muted>No domain events published yet. Use the domain models to publish events.</Muted>
            ) : (
              <EntryList aria-label="Published domain events">
                {state.events.map((event) => (
                  <Entry key={event.id}>
                    <strong>{event.name}</strong>
                    <span>
                      {event.aggregateType} · v{event.version}
                    </span>
                    <code>{JSON.stringify(event.payload)}</code>
                    <Muted as="span">
                      <When at={event.timestamp} />
                    </Muted>
                  </Entry>
                ))}
              </EntryList>
            ),
        },
      ]}
    />
  );
}
