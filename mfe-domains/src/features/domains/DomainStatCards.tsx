import type { DomainSummaryView } from '@cbh/contracts';
import { StatCard, StatGrid } from '@cbh/ui';

/** The four figures, counted by the API over every domain; a dash until they arrive or when they cannot. */
export function DomainStatCards({ summary }: { summary: DomainSummaryView | undefined }) {
  const figure = (value: number | undefined) => value ?? '—';
  return (
    <StatGrid>
      <StatCard label="Total Domains" value={figure(summary?.totalDomains)} />
      <StatCard label="Active Domains" value={figure(summary?.activeDomains)} note="verified and answering" />
      <StatCard label="SSL Certificates" value={figure(summary?.activeCertificates)} note="valid certificates" />
      <StatCard label="Active Alerts" value={figure(summary?.openAlerts)} note="open, not yet resolved" />
    </StatGrid>
  );
}
