import { useMemo } from 'react';
import type uPlot from 'uplot';
import type { SloDetailView } from '@cbh/contracts';
import { Card, Muted, SectionTitle } from '@cbh/ui';
import { TimeSeriesChart } from '@cbh/ui/charts';
import { budgetText, STATUS_COLORS, windowText } from './slo-text';

const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * The chart's time axis over days, not the clock it ticks by for the breakers' minutes and hours: a plugin sets it
 * as uPlot is built, so the shared chart (and the breaker page that loads it first) carries nothing for it.
 */
const dayAxis: uPlot.Plugin = {
  hooks: {},
  opts: (_chart, options) => {
    const axis = options.axes?.[0];
    if (!axis) return;
    // a phone's chart has room for two or three ticks over 30 days: a fortnight apart
    axis.incrs = [6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY];
    axis.values = (_u, ticks) =>
      ticks.map((seconds) => new Date(seconds * 1000).toLocaleDateString('en', { month: 'short', day: 'numeric' }));
  },
};
const PLUGINS = [dayAxis];

const percent = (value: number) => `${value.toLocaleString('en', { maximumFractionDigits: 1 })}%`;

/** The budget left at the end of each day of the window (the last point is now): 100% untouched, 0% spent, below it overspent. */
export function BurnDownChart({ slo }: { slo: SloDetailView }) {
  const data = useMemo(
    () =>
      [slo.burnDown.map((point) => Date.parse(point.at) / 1000), slo.burnDown.map((point) => point.errorBudgetRemaining * 100)] as [
        number[],
        number[],
      ],
    [slo.burnDown],
  );
  const series = useMemo(() => [{ label: 'Budget left', color: STATUS_COLORS[slo.status] }], [slo.status]);
  return (
    <Card aria-labelledby="burn-down-title">
      <SectionTitle id="burn-down-title">Error budget burn-down</SectionTitle>
      <Muted style={{ marginBottom: 12, fontSize: 14 }}>
        The share of the budget left at the end of each day of the last {windowText(slo.window)}.
      </Muted>
      {/* a line needs two points, one a day: a new SLO has counted on one day only */}
      {slo.burnDown.length < 2 ? (
        <Muted role="note" data-testid="burn-down-pending" style={{ fontSize: 14 }}>
          The burn-down is drawn once the SLO has counted on two days. Budget left now: {budgetText(slo.errorBudgetRemaining)}.
        </Muted>
      ) : (
        <TimeSeriesChart title="Error budget left" series={series} data={data} height={220} formatValue={percent} plugins={PLUGINS} />
      )}
    </Card>
  );
}
