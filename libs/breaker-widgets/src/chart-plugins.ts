import type uPlot from 'uplot';
import { STATE_COLORS } from '@cbh/ui';
import type { HistorySeries } from './breaker-history';

/** What the plugins draw, read from a ref at each draw: a chart is built once and fed new data after. */
export interface ChartOverlay {
  current: Pick<HistorySeries, 'marks' | 'spans'>;
}

/** A plugin painting on the chart's canvas at `hook` (drawClear: under the series; draw: over them). */
function canvasPlugin(hook: 'draw' | 'drawClear', paint: (u: uPlot, ctx: CanvasRenderingContext2D) => void): uPlot.Plugin {
  return {
    hooks: {
      [hook]: [
        (u: uPlot) => {
          u.ctx.save();
          paint(u, u.ctx);
          u.ctx.restore();
        },
      ],
    },
  };
}

/** A dashed line, in the colour of the state it moved to, at each of the journal's moves. */
export const marksPlugin = (overlay: ChartOverlay) =>
  canvasPlugin('draw', (u, ctx) => {
    const { left, top, width, height } = u.bbox;
    ctx.lineWidth = 2 * (globalThis.devicePixelRatio || 1);
    ctx.setLineDash([6, 4]);
    for (const mark of overlay.current.marks) {
      const x = Math.round(u.valToPos(mark.at, 'x', true));
      if (x < left || x > left + width) continue;
      ctx.strokeStyle = STATE_COLORS[mark.to];
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
    }
  });

/** The state chart's background: each span in its state's colour (closed green, half-open amber, open red). */
export const spansPlugin = (overlay: ChartOverlay) =>
  canvasPlugin('drawClear', (u, ctx) => {
    const { left, top, width, height } = u.bbox;
    for (const span of overlay.current.spans) {
      const from = Math.max(left, u.valToPos(span.from, 'x', true));
      const to = Math.min(left + width, u.valToPos(span.to, 'x', true));
      if (to <= from) continue;
      ctx.fillStyle = `${STATE_COLORS[span.state]}40`;
      ctx.fillRect(from, top, to - from, height);
    }
  });
