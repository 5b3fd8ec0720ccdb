import { useEffect, useRef, useState, type CSSProperties } from 'react';
import styled from 'styled-components';
import type uPlot from 'uplot';
import { Button } from '../Button';
import { Muted } from '../Card';
import { formatClockTime } from '../format';
import { theme } from '../theme';
import { loadUPlot } from './load-uplot';

/** The few uPlot layout rules the chart needs (its stylesheet, minus the legend and title we do not use). */
const Frame = styled.div`
  position: relative;
  width: 100%;
  .uplot {
    font-family: ${theme.font};
    font-size: 12px;
    width: min-content;
  }
  .u-wrap {
    position: relative;
    user-select: none;
  }
  .u-over,
  .u-under,
  .u-axis,
  .u-select {
    position: absolute;
  }
  .u-under {
    overflow: hidden;
  }
  .uplot canvas {
    display: block;
    position: relative;
    width: 100%;
    height: 100%;
  }
  .u-cursor-x,
  .u-cursor-y,
  .u-cursor-pt {
    position: absolute;
    left: 0;
    top: 0;
    pointer-events: none;
  }
  .u-hz .u-cursor-x {
    height: 100%;
    border-right: 1px dashed ${theme.colors.muted};
  }
  .u-off {
    display: none;
  }
`;

const Legend = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  list-style: none;
  margin: 4px 0 0;
  padding: 0;
  font-size: 13px;
  li::before {
    content: '';
    display: inline-block;
    width: 10px;
    height: 10px;
    border-radius: 2px;
    margin-right: 6px;
    background: var(--series-color);
  }
`;

export interface ChartSeries {
  label: string;
  color: string;
}

export interface TimeSeriesChartProps {
  title: string;
  series: ChartSeries[];
  /** Seconds since the epoch, then one array of values per series. */
  data: [number[], ...(number | null)[][]];
  height?: number;
  /** Draws steps instead of lines (for states). */
  stepped?: boolean;
  yRange?: [number, number];
  /** Fixed y-axis ticks (e.g. one per state). */
  ySplits?: number[];
  formatValue?: (value: number) => string;
  /** uPlot plugins, set when the chart is built (e.g. marks drawn over it from a ref). */
  plugins?: uPlot.Plugin[];
}

/** Whole-second tick steps: the charts cover minutes to a day, never milliseconds. */
const TIME_STEPS_SECONDS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600];
const clockTime = (seconds: number) => formatClockTime(seconds * 1000);

/** Each series' latest value as text ('–' where it has none): the legend, and what the chart says to a screen reader. */
function latestValues({ series, data, formatValue = String }: Pick<TimeSeriesChartProps, 'series' | 'data' | 'formatValue'>): string[] {
  const last = data[0].length - 1;
  return series.map((_entry, i) => {
    const value = data[i + 1]?.[last];
    return value === null || value === undefined ? '–' : formatValue(value);
  });
}

/** How far below the screen a chart starts fetching uPlot, so that it is drawn by the time it is scrolled to. */
const NEAR_SCREEN = '400px';

/** Calls draw once the element is within NEAR_SCREEN of the screen (at once where nothing can tell). */
function whenNearScreen(element: Element, draw: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    draw();
    return () => undefined;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      draw();
    },
    { rootMargin: NEAR_SCREEN },
  );
  observer.observe(element);
  return () => observer.disconnect();
}

/** A live time-series chart (uPlot on a canvas) with a text legend of the latest values. */
export function TimeSeriesChart(props: TimeSeriesChartProps) {
  const { title, series, data, height = 180, stepped = false, yRange, ySplits, formatValue, plugins } = props;
  const frame = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  /** The data of the latest render: what a chart drawn later starts from. */
  const latestData = useRef(data);
  latestData.current = data;
  /** Set when uPlot could not be fetched; each Retry tries again. */
  const [failure, setFailure] = useState<{ attempt: number; failed: boolean }>({ attempt: 0, failed: false });

  useEffect(() => {
    const target = frame.current;
    // Without ResizeObserver (non-browser environments) only the text legend is shown.
    if (!target || typeof ResizeObserver === 'undefined') return;
    let gone = false;
    let teardown: () => void = () => undefined;
    const stopWatching = whenNearScreen(target, () =>
      loadUPlot().then(
        (UPlot) => {
          if (gone) return;
          const plot = draw(UPlot, target);
          chart.current = plot;
          const resize = new ResizeObserver(() => plot.setSize({ width: target.clientWidth, height }));
          resize.observe(target);
          teardown = () => {
            resize.disconnect();
            plot.destroy();
            chart.current = null;
          };
        },
        () => {
          if (!gone) setFailure(({ attempt }) => ({ attempt, failed: true }));
        },
      ),
    );
    return () => {
      gone = true;
      stopWatching();
      teardown();
    };
    // The chart is rebuilt only when its shape changes; new data goes through setData below.
  }, [height, stepped, series.map((entry) => entry.label).join('|'), failure.attempt]);

  function draw(UPlot: typeof uPlot, target: HTMLDivElement): uPlot {
    return new UPlot(
      {
        width: target.clientWidth || 300,
        height,
        legend: { show: false },
        plugins,
        cursor: { y: false, points: { show: false } },
        scales: { x: { time: true }, ...(yRange ? { y: { range: yRange } } : {}) },
        axes: [
          {
            stroke: theme.colors.muted,
            grid: { stroke: theme.colors.border },
            space: 80,
            incrs: TIME_STEPS_SECONDS,
            values: (_u: uPlot, ticks: number[]) => ticks.map(clockTime),
          },
          {
            stroke: theme.colors.muted,
            grid: { stroke: theme.colors.border },
            size: 92,
            ...(ySplits ? { splits: () => ySplits } : {}),
            ...(formatValue ? { values: (_u: uPlot, ticks: number[]) => ticks.map(formatValue) } : {}),
          },
        ],
        series: [
          {},
          ...series.map((entry) => ({
            label: entry.label,
            stroke: entry.color,
            width: 2,
            points: { show: false },
            ...(stepped ? { paths: UPlot.paths.stepped!({ align: 1 }) } : {}),
          })),
        ],
      },
      latestData.current as uPlot.AlignedData,
      target,
    );
  }

  useEffect(() => {
    chart.current?.setData(data as uPlot.AlignedData);
  }, [data]);

  const latest = latestValues({ series, data, formatValue });
  const summary = data[0].length === 0 ? 'no data yet' : series.map((entry, i) => `${entry.label} ${latest[i]}`).join(', ');
  return (
    <figure style={{ margin: 0 }}>
      {/* the chart's height is kept while uPlot loads, so nothing below it moves when it is drawn */}
      <Frame ref={frame} role="img" aria-label={`${title}: ${summary}`} style={{ minHeight: failure.failed ? undefined : height }} />
      <figcaption>
        {failure.failed && (
          <Muted role="alert">
            The chart could not be loaded; the figures below are current.{' '}
            <Button type="button" $variant="outline" onClick={() => setFailure(({ attempt }) => ({ attempt: attempt + 1, failed: false }))}>
              Retry
            </Button>
          </Muted>
        )}
        <Legend aria-label={`${title} legend`}>
          {series.map((entry, i) => (
            <li key={entry.label} style={{ '--series-color': entry.color } as CSSProperties}>
              {entry.label}: <strong>{latest[i]}</strong>
            </li>
          ))}
        </Legend>
      </figcaption>
    </figure>
  );
}
