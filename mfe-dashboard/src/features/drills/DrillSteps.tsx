import styled from 'styled-components';
import { breakerPath, describeFault, type DrillStepView, type DrillView } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Card, ProgressBar, ResponsiveTable, SectionTitle, type TableColumn } from '@cbh/ui';
import { useTimeText } from '../shared/now-clock';
import { countdownText, instancesText, stepPhase } from './drill-text';

const Progress = styled.span`
  display: grid;
  gap: 4px;
  min-width: 120px;
  font-variant-numeric: tabular-nums;
`;

const PHASE_TEXT = { ran: 'Ran to its end', cut: 'Cut short by the stop', skipped: 'Did not run' } as const;

/** Where a step stands now, counting down while it waits or runs; a running one's share of its time as a bar. */
function StepTime({ step, drill }: { step: DrillStepView; drill: DrillView }) {
  const text = useTimeText((now) => {
    const phase = stepPhase(step, drill, now);
    if (phase === 'waiting') return `Starts in ${countdownText(step.startsAt, now)}`;
    if (phase === 'running') return `Ends in ${countdownText(step.endsAt, now)}`;
    return PHASE_TEXT[phase];
  });
  const elapsed = useTimeText((now) => {
    const starts = Date.parse(step.startsAt);
    return String(Math.round((100 * (now - starts)) / (Date.parse(step.endsAt) - starts)));
  });
  if (!text.startsWith('Ends in')) return <span data-testid={`step-time-${step.index}`}>{text}</span>;
  return (
    <Progress>
      <span data-testid={`step-time-${step.index}`}>{text}</span>
      <ProgressBar value={Number(elapsed)} max={100} label={`Step ${step.index + 1}: time elapsed`} />
    </Progress>
  );
}

const columns = (drill: DrillView): TableColumn<DrillStepView>[] => [
  {
    header: 'Step',
    cell: (step) => (
      <>
        Step {step.index + 1}: <Link to={breakerPath(step.breaker.id)}>{step.breaker.name}</Link>
      </>
    ),
  },
  { header: 'Fault', cell: (step) => describeFault(step.fault) },
  { header: 'Instances', cell: (step) => instancesText(step.instances, step.breaker), priority: 2 },
  { header: 'Duration', cell: (step) => `${step.durationSeconds} s`, nowrap: true, priority: 3 },
  { header: 'Time', cell: (step) => <StepTime step={step} drill={drill} /> },
];

/** The drill's steps in the order they run, each with the share of calls its fault hits and, while running, its countdown. */
export function DrillSteps({ drill }: { drill: DrillView }) {
  return (
    <Card aria-labelledby="drill-steps-title">
      <SectionTitle id="drill-steps-title">Steps</SectionTitle>
      <ResponsiveTable
        label="Steps"
        rows={drill.steps}
        rowKey={(step) => String(step.index)}
        rowTestId={(step) => `step-${step.index}`}
        columns={columns(drill)}
      />
    </Card>
  );
}
