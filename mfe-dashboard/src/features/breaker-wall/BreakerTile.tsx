import { memo } from 'react';
import styled from 'styled-components';
import { breakerPath, drillPath, type BreakerConfigView, type BreakerStats } from '@cbh/contracts';
import { OverrideBadge } from '@cbh/breaker-widgets';
import { Link } from '@cbh/router';
import { formatRelativeTime, StateBadge, STATE_COLORS, theme, When } from '@cbh/ui';
import { instancesText, originText } from '../shared/breaker-origin';
import { termsAndValues } from '../shared/figure-styles';
import { useTimeText } from '../shared/now-clock';
import type { DrillMark } from './drill-marks';
import { Sparkline } from './Sparkline';
import { hadTraffic, SPARKLINE_SAMPLES, tileState } from './wall-view';

/**
 * One styled frame with plain elements inside: 200 tiles re-render every 2 s, and a styled component per
 * piece would multiply the work. The state colours the top edge; an open breaker's frame and header turn red.
 */
const Frame = styled.article`
  min-width: 0;
  /* the browser skips style, layout and paint of tiles far off screen */
  content-visibility: auto;
  contain-intrinsic-size: auto 190px;
  border: 1px solid ${theme.colors.border};
  border-top: 4px solid ${STATE_COLORS.CLOSED};
  border-radius: ${theme.radius};
  background: ${theme.colors.surface};
  &[data-state='HALF_OPEN'] {
    border-top-color: ${STATE_COLORS.HALF_OPEN};
  }
  &[data-state='OPEN'] {
    border-color: ${STATE_COLORS.OPEN};
  }
  &[data-selected] {
    box-shadow: 0 0 0 2px ${theme.colors.primary};
  }
  header {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 6px;
    padding: 10px 12px 6px;
  }
  &[data-state='OPEN'] header {
    background: color-mix(in srgb, ${STATE_COLORS.OPEN} 12%, ${theme.colors.surface});
  }
  header input {
    width: 16px;
    height: 16px;
    margin: 0;
    cursor: pointer;
    /* a finger's target (WCAG 2.5.8) */
    @media (pointer: coarse) {
      width: 24px;
      height: 24px;
    }
  }
  header a {
    /* 24 px tall, a finger's target (WCAG 2.5.8) */
    line-height: 24px;
    /* the name keeps room for itself: the badges wrap below it rather than squeeze it to an ellipsis */
    flex: 1 1 auto;
    min-width: min(100%, 9rem);
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-weight: 600;
  }
  /* the Drill badge links to its drill: a pill beside the name, not a second name taking the row */
  header a.drill {
    flex: none;
    min-width: 0;
    padding: 0 8px;
    border-radius: 999px;
    font-size: 12px;
    color: ${theme.colors.primaryText};
    background: ${theme.colors.orange};
    text-decoration: none;
  }
  .body {
    display: grid;
    gap: 8px;
    padding: 0 12px 12px;
  }
  svg {
    display: block;
  }
  small {
    font-size: 12px;
    color: ${theme.colors.muted};
    overflow-wrap: anywhere;
  }
  /* a bad instance: a line of its own with a sign before it, so it does not rest on colour */
  .bad {
    margin: 0;
    font-size: 13px;
    font-weight: 600;
    color: ${theme.colors.destructive};
    overflow-wrap: anywhere;
  }
  dl {
    display: grid;
    grid-template-columns: repeat(2, 1fr);
    gap: 4px 12px;
    margin: 0;
    font-size: 13px;
  }
  dl div {
    display: flex;
    justify-content: space-between;
    gap: 6px;
  }
  ${termsAndValues}
  dd {
    font-variant-numeric: tabular-nums;
  }
`;

// one formatter for every tile: creating one per call would cost more than the rest of the tile
const oneDecimal = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const NO_FIGURE = '—';

/**
 * 'changed 2 minutes ago', the exact time on hover or a tap: the wall's clock re-renders it when the words would
 * change, without re-rendering the tile.
 */
function Since({ at }: { at: string | null }) {
  useTimeText((now) => (at === null ? '' : formatRelativeTime(at, now)));
  return (
    <small>
      {at === null ? (
        'no change since start'
      ) : (
        <>
          changed <When at={at} />
        </>
      )}
    </small>
  );
}

/** The four figures; with no call in the window, calls/s is 0 and the rest are '—' (no error %, no latency). */
function Figures({ stats }: { stats: BreakerStats | undefined }) {
  const traffic = stats !== undefined && hadTraffic(stats);
  const figure = (text: () => string) => (stats && traffic ? text() : NO_FIGURE);
  return (
    <>
      <dl>
        <div>
          <dt>Calls/s</dt>
          <dd>{stats ? oneDecimal.format(stats.requestsPerSecond) : NO_FIGURE}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd>{figure(() => `${oneDecimal.format(stats!.errorPercentage)}%`)}</dd>
        </div>
        <div>
          <dt>p50</dt>
          <dd>{figure(() => `${Math.round(stats!.latency.p50)} ms`)}</dd>
        </div>
        <div>
          <dt>p99</dt>
          <dd>{figure(() => `${Math.round(stats!.latency.p99)} ms`)}</dd>
        </div>
      </dl>
      {stats && !traffic ? <small data-testid="no-traffic">no traffic</small> : null}
    </>
  );
}

interface TileProps {
  breaker: BreakerConfigView;
  /** The breaker's latest figures, summed over the replicas; absent until the API reports any. */
  stats: BreakerStats | undefined;
  /** Its calls/s over the last minute, oldest first. */
  callRates: readonly number[];
  /** Chosen for an action on many breakers. */
  selected?: boolean;
  /** Given when the person may act on many breakers: the tile then has its checkbox. */
  onToggle?: (id: number) => void;
  /** The running drill injecting faults into its calls, for those who may see drills. */
  drill?: DrillMark;
}

/**
 * One breaker on the wall. Memoised: a metricsUpdate re-renders the tiles whose entry changed, a stateChange
 * (one entry patched in the cache) re-renders only that breaker's tile, and choosing a tile only that tile.
 */
export const BreakerTile = memo(function BreakerTile({ breaker, stats, callRates, selected = false, onToggle, drill }: TileProps) {
  const state = tileState({ breaker, stats });
  const instances = stats?.instances;
  return (
    <Frame
      aria-label={breaker.name}
      data-testid="breaker-tile"
      data-breaker-id={breaker.id}
      data-state={state}
      data-selected={selected || undefined}
    >
      <header>
        {onToggle ? (
          <input type="checkbox" aria-label={`Select ${breaker.name}`} checked={selected} onChange={() => onToggle(breaker.id)} />
        ) : null}
        <Link to={breakerPath(breaker.id)}>{breaker.name}</Link>
        <StateBadge state={state} />
        <OverrideBadge override={stats?.override ?? breaker.override} />
        {drill ? (
          // its name says which drill: the visible word alone would not tell a screen reader
          <Link
            className="drill"
            to={drillPath(drill.id)}
            aria-label={`Drill running: ${drill.name}`}
            title={`Drill running: ${drill.name}`}
          >
            Drill
          </Link>
        ) : null}
      </header>
      <div className="body">
        <small>{originText(breaker) ?? breaker.type}</small>
        {instances ? <small data-testid="tile-instances">{instancesText(instances)}</small> : null}
        {instances?.bad ? (
          <p className="bad" title="Its error rate is far above the other instances'; the summed figures hide it">
            <span aria-hidden="true">⚠ </span>Bad instance: {instances.bad}
          </p>
        ) : null}
        <div>
          <Sparkline values={callRates} slots={SPARKLINE_SAMPLES} color={STATE_COLORS[state]} />
          <small>calls/s, last minute</small>
        </div>
        <Figures stats={stats} />
        <Since at={stats?.lastTransitionAt ?? null} />
      </div>
    </Frame>
  );
});
