import { HISTORY_RANGE_NAMES, HISTORY_RANGES, type HistoryRange } from '@cbh/contracts';
import { Button, WrapRow } from '@cbh/ui';

/** 5 min, 1 h, 6 h or 24 h: the span a breaker's charts show, the chosen one pressed. */
export function RangePicker({
  value,
  onChange,
  label = 'Range',
}: {
  value: HistoryRange;
  onChange: (range: HistoryRange) => void;
  label?: string;
}) {
  return (
    <WrapRow role="group" aria-label={label} data-testid="range-picker">
      {HISTORY_RANGE_NAMES.map((range) => (
        <Button
          key={range}
          type="button"
          $variant={value === range ? 'primary' : 'outline'}
          aria-pressed={value === range}
          onClick={() => onChange(range)}
        >
          {HISTORY_RANGES[range].label}
        </Button>
      ))}
    </WrapRow>
  );
}
