import type { SloView } from '@cbh/contracts';
import { formatCount, StatCard, StatGrid } from '@cbh/ui';
import { BudgetLeft, SloStatusBadge } from './SloFigures';
import { indicatorText, percentText, sliText, windowText } from './slo-text';

/** Where the objective stands: its status, its SLI against the target, the budget left and the window's events. */
export function SloSummary({ slo }: { slo: SloView }) {
  const bad = slo.total - slo.good;
  return (
    <StatGrid data-testid="slo-summary" style={{ marginBottom: 0 }}>
      <StatCard label="Status" value={<SloStatusBadge status={slo.status} />} note={indicatorText(slo.indicator.kind)} />
      <StatCard label="SLI" value={sliText(slo.sli)} note={`Target ${percentText(slo.target)} over ${windowText(slo.window)}`} />
      <StatCard label="Error budget left" value={<BudgetLeft remaining={slo.errorBudgetRemaining} status={slo.status} />} />
      <StatCard label="Events" value={formatCount(slo.total)} note={`${formatCount(slo.good)} good, ${formatCount(bad)} bad`} />
    </StatGrid>
  );
}
