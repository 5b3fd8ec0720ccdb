import { liveCalls } from '@cbh/breaker-widgets';
import type { BreakerStats } from '@cbh/contracts';
import { StatCard, StatGrid } from '@cbh/ui';
import { oneDecimal } from './figures';

const NONE = '—';
const NO_TRAFFIC = 'No traffic in the last 10 s';

/**
 * The breaker's figures now, from the latest metrics (updated live every 2 s): summed over the API replicas for the
 * hub's own breakers, over the service's live instances for an agent's or a scraped one (`external`). Without calls
 * there is no error rate or latency to show: "—", never 0 % or 0 ms.
 */
export function LiveFigures({ stats, external = false }: { stats: BreakerStats | undefined; external?: boolean }) {
  const holders = external ? stats?.instances : stats?.replicas;
  const busy = stats !== undefined && liveCalls(stats) > 0;
  const idle = stats !== undefined && !busy;
  return (
    <StatGrid aria-label="Current figures" role="group" style={{ marginBottom: 0 }}>
      <StatCard label="Calls/s" value={stats ? oneDecimal(stats.requestsPerSecond) : NONE} note={idle ? NO_TRAFFIC : undefined} />
      <StatCard label="Error rate" value={busy ? `${oneDecimal(stats.errorPercentage)}%` : NONE} note={idle ? NO_TRAFFIC : undefined} />
      <StatCard
        label="Latency p50 / p99"
        value={busy ? `${Math.round(stats.latency.p50)} / ${Math.round(stats.latency.p99)} ms` : NONE}
        note={idle ? NO_TRAFFIC : undefined}
      />
      <StatCard
        label={external ? 'Instances open' : 'Replicas open'}
        value={holders ? `${holders.open} of ${holders.total}` : NONE}
        note={
          !holders
            ? 'No figures reported yet'
            : external
              ? 'Live service instances holding this breaker OPEN'
              : 'API replicas holding this breaker OPEN'
        }
      />
    </StatGrid>
  );
}
