import type { BreakerStats } from '@cbh/contracts';
import { CardGrid, StatCard } from '@cbh/ui';
import { oneDecimal } from './figures';

const NONE = '–';

/** The breaker's figures now, from the latest metrics (updated live every 2 s). */
export function LiveFigures({ stats }: { stats: BreakerStats | undefined }) {
  return (
    <CardGrid aria-label="Current figures" role="group" style={{ marginBottom: 0 }}>
      <StatCard label="Calls/s" value={stats ? oneDecimal(stats.requestsPerSecond) : NONE} />
      <StatCard label="Error rate" value={stats ? `${oneDecimal(stats.errorPercentage)}%` : NONE} />
      <StatCard label="Latency p50 / p99" value={stats ? `${Math.round(stats.latency.p50)} / ${Math.round(stats.latency.p99)} ms` : NONE} />
      <StatCard
        label="Replicas open"
        value={stats ? `${stats.replicas.open} of ${stats.replicas.total}` : NONE}
        note={stats ? 'API replicas holding this breaker OPEN' : 'No figures reported yet'}
      />
    </CardGrid>
  );
}
