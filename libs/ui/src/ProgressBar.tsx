import styled from 'styled-components';
import { theme } from './theme';

const Track = styled.div`
  height: 8px;
  border-radius: 999px;
  background: ${theme.colors.border};
  overflow: hidden;
`;
const Fill = styled.div`
  height: 100%;
  background: ${theme.colors.primary};
  transition: width 0.3s;
`;

/** max must be greater than 0; the value is held between 0 and max. */
export function clampProgress(value: number, max: number): number {
  if (!(max > 0)) throw new RangeError(`progress max must be greater than 0, got ${max}`);
  return Math.min(max, Math.max(0, value));
}

/** `color` tells what the share means where it is a judgement (a budget nearly spent), primary blue unless given. */
export function ProgressBar({ value, max, label, color }: { value: number; max: number; label: string; color?: string }) {
  const clamped = clampProgress(value, max);
  return (
    <Track role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={max} aria-valuenow={Math.round(clamped)}>
      <Fill style={{ width: `${(100 * clamped) / max}%`, ...(color ? { background: color } : {}) }} />
    </Track>
  );
}
