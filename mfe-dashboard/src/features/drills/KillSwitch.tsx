import { lazy, Suspense, useEffect, useState } from 'react';
import styled from 'styled-components';
import type { DrillView } from '@cbh/contracts';
import { Card, Muted, theme } from '@cbh/ui';
import { BigStopButton } from './BigStopButton';

// fetched with the page's first running drill, not on the press: the kill switch must not wait on the network
const loadConfirm = () => import('./StopAllConfirm');
const StopAllConfirm = lazy(() => loadConfirm().then((module) => ({ default: module.StopAllConfirm })));

const Banner = styled(Card)`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 12px 24px;
  border-color: ${theme.colors.destructive};
  border-width: 2px;
  p {
    margin: 0;
  }
`;

/**
 * While any drill runs: how many, and the one button that stops them all (after a confirmation naming them). It stands
 * above the list, whoever started the drills: any admin may stop every one.
 */
export function KillSwitch({ running }: { running: readonly DrillView[] }) {
  const [asking, setAsking] = useState(false);
  useEffect(() => void loadConfirm(), []);
  return (
    <Banner aria-label="Running drills">
      <div>
        <strong>
          {running.length === 1 ? '1 drill is running' : `${running.length} drills are running`}: faults hit real traffic now.
        </strong>
        <Muted>{running.map((drill) => drill.name).join(', ')}</Muted>
      </div>
      <BigStopButton onClick={() => setAsking(true)}>Stop all drills</BigStopButton>
      <Suspense fallback={null}>{asking ? <StopAllConfirm running={running} onClose={() => setAsking(false)} /> : null}</Suspense>
    </Banner>
  );
}
