const WIDTH = 120;
const HEIGHT = 28;

/**
 * A trend line as a bare SVG polyline: with 200 tiles a chart library per tile would not fit a frame. The
 * newest value sits at the right edge and the line grows leftwards until `slots` values have arrived; the
 * scale runs from zero to the largest value shown (at least 1, so a quiet breaker lies flat at the bottom).
 */
export function Sparkline({ values, slots, color }: { values: readonly number[]; slots: number; color: string }) {
  const shown = values.slice(-slots);
  const max = Math.max(1, ...shown);
  const step = WIDTH / (slots - 1);
  const offset = slots - shown.length;
  const points = shown
    .map((value, i) => `${((offset + i) * step).toFixed(1)},${(HEIGHT - 1 - (value / max) * (HEIGHT - 2)).toFixed(1)}`)
    .join(' ');
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" height={HEIGHT} preserveAspectRatio="none" aria-hidden data-testid="sparkline">
      {shown.length > 1 ? (
        <polyline points={points} fill="none" stroke={color} strokeWidth={1.5} vectorEffect="non-scaling-stroke" />
      ) : null}
    </svg>
  );
}
