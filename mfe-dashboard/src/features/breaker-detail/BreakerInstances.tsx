import { useMemo } from 'react';
import styled from 'styled-components';
import { useGetBreakerInstancesQuery } from '@cbh/api-client';
import { OverrideBadge } from '@cbh/breaker-widgets';
import type { BreakerConfigView, BreakerInstanceView } from '@cbh/contracts';
import { Badge, Card, DataTable, formatDateTime, Muted, SectionTitle, StateBadge, theme } from '@cbh/ui';
import { NowProvider, useTimeText } from '../shared/now-clock';
import { LoadedList } from '../shared/section-parts';
import { agoText } from '../shared/time-text';
import { oneDecimal } from './figures';

const COLUMNS = ['Instance', 'State', 'Calls/s', 'Errors', 'p99', 'Last report'] as const;

// a stale instance's row is greyed (its badge says why, for those who cannot tell colours apart)
const Rows = styled.div`
  td {
    font-variant-numeric: tabular-nums;
  }
  tr[data-stale] td {
    color: ${theme.colors.muted};
    background: ${theme.colors.background};
  }
  .marks {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 6px;
  }
  .name {
    overflow-wrap: anywhere;
    font-weight: 600;
  }
`;

const Note = styled(Muted)`
  margin-top: 12px;
  font-size: 13px;
`;

/** '12 s ago', counting on by itself between the table's updates. */
function LastReport({ at }: { at: string }) {
  const title = useMemo(() => formatDateTime(at), [at]);
  const text = useTimeText((now) => agoText(at, now));
  return (
    <time dateTime={at} title={title}>
      {text}
    </time>
  );
}

function InstanceRow({ instance }: { instance: BreakerInstanceView }) {
  return (
    <tr data-stale={instance.stale || undefined} data-bad={instance.bad || undefined}>
      <td>
        <div className="marks">
          <span className="name">{instance.instance}</span>
          {instance.bad ? <Badge $color={theme.colors.destructive}>Bad instance</Badge> : null}
          {instance.stale ? <Badge $color={theme.colors.grey}>Stale</Badge> : null}
        </div>
      </td>
      <td>
        <div className="marks">
          <StateBadge state={instance.state} />
          <OverrideBadge override={instance.override} />
        </div>
      </td>
      <td>{oneDecimal(instance.requestsPerSecond)}</td>
      <td>{oneDecimal(instance.errorPercentage)}%</td>
      <td>{Math.round(instance.latency.p99)} ms</td>
      <td>
        <LastReport at={instance.lastReportAt} />
      </td>
    </tr>
  );
}

/**
 * The service instances that run this breaker, each with its own figures, live ones first: where the page's figures
 * (their sum) hide one instance failing alone, this shows it. Read again with every live update of the figures.
 */
export function BreakerInstances({ breaker }: { breaker: BreakerConfigView }) {
  const instances = useGetBreakerInstancesQuery(breaker.id);
  return (
    <Card aria-labelledby="instances-title">
      <SectionTitle id="instances-title">Instances</SectionTitle>
      <Muted style={{ marginBottom: 12, fontSize: 14 }}>
        Each instance of {breaker.service} that reports this breaker. The figures above are the live instances’ sum.
      </Muted>
      <LoadedList query={instances} what="instances">
        {({ instances: list }) =>
          list.length === 0 ? (
            <Muted>No instance has reported yet.</Muted>
          ) : (
            <Rows>
              <NowProvider>
                <DataTable label="Instances of this breaker" columns={COLUMNS} minWidth={640}>
                  {list.map((instance) => (
                    <InstanceRow key={instance.instance} instance={instance} />
                  ))}
                </DataTable>
              </NowProvider>
              {list.some((instance) => instance.stale) ? (
                <Note>Stale instances have stopped reporting: the figures above leave them out.</Note>
              ) : null}
            </Rows>
          )
        }
      </LoadedList>
    </Card>
  );
}
