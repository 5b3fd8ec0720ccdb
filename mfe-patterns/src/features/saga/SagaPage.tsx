import styled from 'styled-components';
import {
  SAGA_TEMPLATES,
  SagaSimulation,
  successRate,
  type Saga,
  type SagaState,
  type SagaTemplateId,
  type StepStatus,
} from '@cbh/simulations';
import { Badge, Button, Card, CardGrid, Muted, ProgressBar, StatCard, theme, VisuallyHidden, When } from '@cbh/ui';
import { Controls, Entry, EntryList } from '../shared/demo-styles';
import { PatternPage } from '../shared/PatternPage';
import { useSimulation } from '../shared/useSimulation';

const STEP_COLORS: Record<StepStatus, string> = {
  pending: theme.colors.grey,
  executing: theme.colors.primary,
  completed: theme.colors.success,
  failed: theme.colors.destructive,
  compensated: theme.colors.yellow,
};
const SAGA_COLORS: Record<Saga['status'], string> = {
  running: theme.colors.primary,
  compensating: theme.colors.orange,
  completed: theme.colors.success,
  compensated: theme.colors.yellow,
};

const Steps = styled.ol`
  margin: 8px 0 0;
  padding-left: 20px;
  display: grid;
  gap: 4px;
  font-size: 14px;
`;

const seconds = (ms: number | null) => (ms === null ? '' : `${(ms / 1000).toFixed(1)} s`);
const START_LABELS: Record<SagaTemplateId, string> = {
  'order-processing': 'Start Order Processing',
  'account-creation': 'Start Account Creation',
};

function SagaCard({ saga, engine }: { saga: Saga; engine: SagaSimulation }) {
  // a step counts once it has run (it has a duration): one being compensated, executing again, keeps its place
  const done = saga.steps.filter((step) => step.duration !== null).length;
  return (
    <Card aria-label={`${saga.name} ${saga.id}`} data-testid="saga">
      <Controls style={{ marginBottom: 8 }}>
        <strong>{saga.name}</strong>
        <Badge $color={SAGA_COLORS[saga.status]} data-testid="saga-status">
          {saga.status}
        </Badge>
        <Muted as="span">
          started <When at={saga.startTime} />
          {saga.totalDuration !== null ? ` · took ${seconds(saga.totalDuration)}` : ''}
        </Muted>
        {saga.status === 'compensated' ? (
          <Button $variant="outline" onClick={() => engine.retry(saga.id)}>
            Retry<VisuallyHidden> {saga.id}</VisuallyHidden>
          </Button>
        ) : null}
      </Controls>
      <ProgressBar value={done} max={saga.steps.length} label={`${saga.name} ${saga.id} progress`} />
      <Steps>
        {saga.steps.map((step) => (
          <li key={step.id}>
            {step.name} <Muted as="span">({step.service})</Muted>{' '}
            <Badge $color={STEP_COLORS[step.status]} data-testid="step-status">
              {step.status}
            </Badge>{' '}
            {seconds(step.duration)}
            {step.error ? <Muted as="span"> — {step.error}</Muted> : null}
          </li>
        ))}
      </Steps>
    </Card>
  );
}

function Monitoring({ state }: { state: SagaState }) {
  const rate = (template: SagaTemplateId) => {
    const value = successRate(state, template);
    return value === null ? 'no runs yet' : `${Math.round(value * 100)}%`;
  };
  return (
    <>
      <CardGrid>
        {(Object.keys(SAGA_TEMPLATES) as SagaTemplateId[]).map((template) => (
          <StatCard key={template} label={`${SAGA_TEMPLATES[template].name} success rate`} value={rate(template)} />
        ))}
      </CardGrid>
      <h2 style={{ fontSize: 16 }}>Recent failures</h2>
      {state.failures.length === 0 ? (
        <Muted>No failures yet.</Muted>
      ) : (
        <EntryList aria-label="Recent failures">
          {state.failures.map((failure) => (
            <Entry key={`${failure.sagaId}-${failure.timestamp}`}>
              <strong>{failure.sagaName}</strong>
              <span>{failure.step}</span>
              <span>{failure.error}</span>
              <Muted as="span">
                <When at={failure.timestamp} />
              </Muted>
            </Entry>
          ))}
        </EntryList>
      )}
    </>
  );
}

export function SagaPage() {
  const [state, engine] = useSimulation(() => new SagaSimulation());
  const start = (
    <Controls>
      {(Object.keys(SAGA_TEMPLATES) as SagaTemplateId[]).map((template) => (
        <Button key={template} onClick={() => engine.start(template)}>
          {START_LABELS[template]}
        </Button>
      ))}
    </Controls>
  );
  return (
    <PatternPage
      title="Saga"
      intro={
        <>
          A saga runs a transaction that spans several services as a sequence of local steps, each with a compensating action that undoes it
          if a later step fails. Use it where one database transaction cannot reach every service; it costs designing an undo for every step
          and living with states that are briefly inconsistent.
        </>
      }
      sectionsLabel="Saga sections"
      figures={{
        'Total sagas': state.counts.total,
        Successful: state.counts.successful,
        Failed: state.counts.failed,
        Compensated: state.counts.compensated,
      }}
      overview={start}
      sections={[
        {
          value: 'executions',
          label: 'Saga Executions',
          content: (
            <>
              {start}
              {state.sagas.length === 0 ? (
                <Muted>No sagas yet. Start one to watch its steps run.</Muted>
              ) : (
                state.sagas.map((saga) => <SagaCard key={saga.id} saga={saga} engine={engine} />)
              )}
            </>
          ),
        },
        {
          value: 'compensation',
          label: 'Compensation',
          content:
            state.compensations.length === 0 ? (
              <Muted>No compensation actions recorded yet</Muted>
            ) : (
              <EntryList aria-label="Compensation log">
                {state.compensations.map((record) => (
                  <Entry key={`${record.stepId}-${record.timestamp}`}>
                    <strong>{record.action}</strong>
                    <Badge $color={record.success ? theme.colors.success : theme.colors.destructive}>
                      {record.success ? 'compensated' : 'failed'}
                    </Badge>
                    {record.error ? <span>{record.error}</span> : null}
                    <Muted as="span">
                      <When at={record.timestamp} />
                    </Muted>
                  </Entry>
                ))}
              </EntryList>
            ),
        },
        { value: 'monitoring', label: 'Monitoring', content: <Monitoring state={state} /> },
      ]}
    />
  );
}
