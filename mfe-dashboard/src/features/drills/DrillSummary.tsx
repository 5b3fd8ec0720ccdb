import styled from 'styled-components';
import type { DrillView } from '@cbh/contracts';
import { Card, Muted, SectionTitle, When } from '@cbh/ui';
import { useTimeText } from '../shared/now-clock';
import { DrillStateBadge, VerdictBadge } from './DrillBadges';
import { countdownText, outcomeText } from './drill-text';

const Badges = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  margin-bottom: 12px;
`;

const Countdown = styled.p`
  margin: 0 0 8px;
  font-size: 28px;
  font-weight: 700;
  font-variant-numeric: tabular-nums;
`;

function EndsIn({ at }: { at: string }) {
  const left = useTimeText((now) => countdownText(at, now));
  return <Countdown data-testid="drill-countdown">Ends in {left}</Countdown>;
}

/**
 * Where the drill stands: while it runs, the time left until its last step ends; once it ended, its report — how it
 * ended, by whom, and how its expectations came out.
 */
export function DrillSummary({ drill }: { drill: DrillView }) {
  const running = drill.state === 'running';
  return (
    <Card aria-labelledby="drill-summary-title">
      <SectionTitle id="drill-summary-title">{running ? 'Now' : 'Report'}</SectionTitle>
      <Badges>
        <DrillStateBadge state={drill.state} />
        <VerdictBadge verdict={drill.verdict} />
      </Badges>
      {running ? <EndsIn at={drill.endsAt} /> : <p data-testid="drill-outcome">{outcomeText(drill)}</p>}
      <Muted>
        Started <When at={drill.startedAt} /> by {drill.startedBy ?? 'a removed account'}
        {drill.endedAt ? (
          <>
            ; ended <When at={drill.endedAt} />
          </>
        ) : null}
        .
      </Muted>
    </Card>
  );
}
