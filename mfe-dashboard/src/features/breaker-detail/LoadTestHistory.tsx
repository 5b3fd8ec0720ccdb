import { useState } from 'react';
import { apiErrorMessage, useGetBreakerTestSessionsQuery } from '@cbh/api-client';
import type { TestSessionView } from '@cbh/contracts';
import { Badge, Card, DataTable, formatDateTime, Muted, SectionTitle, theme } from '@cbh/ui';

const RUNNING_REFRESH_MS = 5000;

const COLUMNS = ['Started', 'Duration', 'Failure rate', 'Request rate', 'Status'] as const;
const STATUS: Record<TestSessionView['status'], { label: string; color: string }> = {
  running: { label: 'Running', color: theme.colors.primary },
  completed: { label: 'Completed', color: theme.colors.success },
  stopped: { label: 'Stopped', color: theme.colors.grey },
};

function minutesAndSeconds(ms: number) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes ? `${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ''}` : `${seconds} s`;
}

/** A stopped test ran for less than it was set to: both are worth seeing. */
function duration(session: TestSessionView) {
  if (session.status !== 'stopped' || !session.stoppedAt) return `${session.duration} min`;
  return `${minutesAndSeconds(Date.parse(session.stoppedAt) - Date.parse(session.startedAt))} of ${session.duration} min`;
}

/** The newest load tests run through this breaker (the API keeps the last 50). */
export function LoadTestHistory({ configId }: { configId: number }) {
  const [running, setRunning] = useState(false);
  // no message says a session ended (it ends by itself, on any replica): while one runs, the list is re-read
  const {
    data: sessions,
    isError,
    error,
  } = useGetBreakerTestSessionsQuery(configId, { pollingInterval: running ? RUNNING_REFRESH_MS : 0 });
  const anyRunning = sessions?.some((session) => session.status === 'running') ?? false;
  if (anyRunning !== running) setRunning(anyRunning);
  return (
    <Card aria-labelledby="load-tests-title">
      <SectionTitle id="load-tests-title">Load-test history</SectionTitle>
      {!sessions && isError ? (
        <Muted role="alert">The load tests could not be loaded. {apiErrorMessage(error) ?? ''}</Muted>
      ) : (
        // the table is drawn while it loads, its one row saying so: loading, no test and one test take the same height,
        // so the journal below does not move from under a pointer when the list arrives
        <DataTable
          label="Load tests of this breaker"
          columns={COLUMNS}
          minWidth={560}
          empty={sessions ? 'No load test has run through this breaker yet.' : <span role="status">Loading…</span>}
        >
          {sessions?.map((session) => (
            <tr key={session.id}>
              {/* on one line, as the loading and empty rows are: the card keeps its height when the list arrives */}
              <td data-nowrap>{formatDateTime(session.startedAt)}</td>
              <td data-nowrap>{duration(session)}</td>
              <td>{session.failureRate}%</td>
              <td>{session.requestRate} req/s</td>
              <td>
                <Badge $color={STATUS[session.status].color}>{STATUS[session.status].label}</Badge>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </Card>
  );
}
