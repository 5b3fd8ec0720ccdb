import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import { apiErrorMessage } from '@cbh/api-client';
import type { JournalEntry } from '@cbh/contracts';
import { Button, Columns, Muted, plural, theme, VisuallyHidden, When, WrapRow } from '@cbh/ui';
import { BreakerStateDiagram, STATE_LABEL } from './BreakerStateDiagram';
import { MAX_STEP_WAIT_MS, REPLAY_SPEEDS, replayFrame } from './journal-replay';
import { useBreakerJournal } from './useBreakerJournal';
import { useJournalReplay } from './useJournalReplay';

const Player = styled.div`
  display: grid;
  gap: 12px;
  align-content: start;
  min-width: 0;
`;
const Counter = styled.p`
  margin: 0;
  font-weight: 600;
`;
const Timeline = styled.div`
  display: grid;
  gap: 8px;
  min-width: 0;
`;
// positioned, so the rows' offsetTop is measured from the list when the current row is scrolled into view
const Rows = styled.ol`
  position: relative;
  list-style: none;
  margin: 0;
  padding: 0;
  max-height: 24rem;
  overflow-y: auto;
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
`;
// a row: when (a <When>, focusable itself) and, beside it, the button that takes the replay to this step
const Row = styled.li`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  gap: 2px 12px;
  padding: 8px 12px;
  border-bottom: 1px solid ${theme.colors.border};
  background: ${theme.colors.surface};
  font-size: 13px;
  &.current {
    background: ${theme.colors.primary}1a;
    box-shadow: inset 4px 0 0 ${theme.colors.primary};
  }
  time,
  .replica {
    color: ${theme.colors.muted};
  }
  > button {
    display: flex;
    flex-wrap: wrap;
    flex: 1 1 12rem;
    gap: 2px 12px;
    min-width: 0;
    padding: 0;
    border: 0;
    background: none;
    font: inherit;
    text-align: left;
    color: ${theme.colors.text};
    cursor: pointer;
    &:focus-visible {
      outline: 2px solid ${theme.colors.primary};
      outline-offset: 2px;
    }
  }
  .move {
    font-weight: 600;
  }
  .reason {
    flex-basis: 100%;
    overflow-wrap: anywhere;
  }
`;

/**
 * Journal rows name the replica by the start of its id: enough to tell a handful of replicas apart. A move a service
 * reported names the service instance it happened on instead (no API replica made it).
 */
const shortReplica = (instanceId: string | null) => (instanceId ? instanceId.slice(0, 8) : 'unknown');
const move = (entry: JournalEntry) => `${STATE_LABEL[entry.from]} → ${STATE_LABEL[entry.to]}`;

function counterText(step: number, count: number) {
  return step === 0 ? `Before step 1 of ${count}` : `Step ${step} of ${count}`;
}

/**
 * A breaker's transition journal as a timeline, replayed on the state diagram: Previous / Next / Play at 1× or 10×,
 * each step lighting the state the transition moved to, with its reason as the caption.
 */
export function JournalReplay({ configId }: { configId: number }) {
  const journal = useBreakerJournal(configId);
  const { entries } = journal;
  const [replay, dispatch] = useJournalReplay(entries);
  const { step, count, playing, speed } = replay;
  const frame = replayFrame(entries, step);
  const newestFirst = useMemo(() => [...entries].reverse(), [entries]);

  // keep the current row in sight inside the list while stepping, without scrolling the page
  const rows = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const box = rows.current;
    const row = box?.querySelector<HTMLElement>('li.current');
    if (!box || !row) return;
    if (row.offsetTop < box.scrollTop) box.scrollTop = row.offsetTop;
    else if (row.offsetTop + row.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = row.offsetTop + row.offsetHeight - box.clientHeight;
  }, [step, count]);

  if (journal.loading) return <Muted role="status">Loading the journal…</Muted>;
  if (!frame) {
    return journal.error ? (
      <Muted role="alert">The journal could not be loaded. {apiErrorMessage(journal.error) ?? ''}</Muted>
    ) : (
      <>
        <BreakerStateDiagram state="CLOSED" caption="No transitions yet" />
        <Muted style={{ marginTop: 12 }}>Each move of this breaker between CLOSED, OPEN and HALF-OPEN is recorded here.</Muted>
      </>
    );
  }

  // ← and → step through the journal from anywhere in the replay, as the buttons do
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') dispatch({ type: 'previous' });
    else if (event.key === 'ArrowRight') dispatch({ type: 'next' });
    else return;
    event.preventDefault();
  };

  return (
    // the player gets the wider share, so the diagram stays one row beside the timeline on a desktop screen
    <Columns $columns="minmax(0, 3fr) minmax(0, 2fr)" $gap={20} onKeyDown={onKeyDown}>
      <Player>
        <BreakerStateDiagram state={frame.state} from={frame.from} caption={frame.caption} />
        <Counter aria-live="polite" data-testid="replay-step">
          {counterText(step, count)}
          <VisuallyHidden>: {frame.entry ? `${move(frame.entry)}, ${frame.caption}` : frame.caption}</VisuallyHidden>
        </Counter>
        <WrapRow role="group" aria-label="Replay controls">
          <Button $variant="outline" onClick={() => dispatch({ type: 'previous' })} disabled={step === 0}>
            Previous
          </Button>
          <Button onClick={() => dispatch({ type: playing ? 'pause' : 'play' })}>{playing ? 'Pause' : 'Play'}</Button>
          <Button $variant="outline" onClick={() => dispatch({ type: 'next' })} disabled={step === count}>
            Next
          </Button>
        </WrapRow>
        <WrapRow role="group" aria-label="Replay speed">
          {REPLAY_SPEEDS.map((option) => (
            <Button
              key={option}
              $variant={speed === option ? 'primary' : 'outline'}
              aria-pressed={speed === option}
              onClick={() => dispatch({ type: 'speed', speed: option })}
            >
              {option}×
            </Button>
          ))}
        </WrapRow>
        <Muted style={{ fontSize: 13 }}>
          At 1× each step waits as long as the breaker really waited between the two transitions, but at most {MAX_STEP_WAIT_MS / 1000} s,
          so quiet hours do not stall the replay; 10× waits a tenth of that. ← and → step too.
        </Muted>
      </Player>
      <Timeline>
        <Muted style={{ fontSize: 13 }}>
          {plural(count, 'transition')}, newest first{journal.hasOlder ? '; older ones further down' : ''}.
        </Muted>
        {journal.error ? <Muted role="alert">Part of the journal could not be loaded. {apiErrorMessage(journal.error) ?? ''}</Muted> : null}
        <Rows ref={rows} aria-label="Transitions, newest first">
          {newestFirst.map((entry, index) => (
            <Row key={entry.id} className={count - index === step ? 'current' : undefined}>
              <When at={entry.at} />
              <button
                type="button"
                aria-current={count - index === step ? 'step' : undefined}
                onClick={() => dispatch({ type: 'goTo', step: count - index })}
              >
                <span className="move">{move(entry)}</span>
                {entry.serviceInstance ? (
                  <span className="replica">on {entry.serviceInstance}</span>
                ) : (
                  <span className="replica" title={entry.instanceId ?? undefined}>
                    replica {shortReplica(entry.instanceId)}
                  </span>
                )}
                <span className="reason">{entry.reason}</span>
              </button>
            </Row>
          ))}
        </Rows>
        {journal.hasOlder ? (
          <div>
            <Button $variant="outline" onClick={journal.loadOlder} disabled={journal.loadingOlder}>
              {journal.loadingOlder ? 'Loading…' : 'Load older transitions'}
            </Button>
          </div>
        ) : null}
      </Timeline>
    </Columns>
  );
}
