import { CardGrid, StatCard } from '@cbh/ui';
import type { DomainCounts } from './domain-display';

export function DomainStatCards({ counts }: { counts: DomainCounts }) {
  return (
    <CardGrid>
      <StatCard label="Total Domains" value={counts.total} />
      <StatCard label="Active Domains" value={counts.active} note="verified and answering" />
      <StatCard label="SSL Certificates" value={counts.certificates} note="valid certificates" />
      <StatCard label="Active Alerts" value={counts.openAlerts} note="open, not yet resolved" />
    </CardGrid>
  );
}
