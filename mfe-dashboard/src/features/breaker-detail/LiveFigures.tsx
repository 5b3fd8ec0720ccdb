import type { BreakerStats } from '@cbh/contracts';
import { StatCard, StatGrid } from '@cbh/ui';
import { oneDecimal } from './figures';

const NONE = '–';

/**
 * The breaker's figures now, from the latest metrics (updated live every 2 s): summed over the API replicas for the
 * hub's own breakers, over the service's live instances for an agent's or a scraped one (`external`).
 */
export function LiveFigures({ stats, external = false }: { stats: BreakerStats | undefined; external?: boolean }) {
  const holders = external ? stats?.instances : stats?.replicas;
  return (
    <StatGrid aria-label="Current figures" role="group" style={{ marginBottom: 0 }}>
      <StatCard label="Calls/s" value={stats ? oneDecimal(stats.requestsPerSecond) : NONE} />
      <StatCard label="Error rate" value={stats ? `${oneDecimal(stats.errorPercentage)}%` : NONE} />
      <StatCard label="Latency p50 / p99" value={stats ? `${Math.round(stats.latency.p50)} / ${Math.round(stats.latency.p99)} ms` : NONE} />
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
