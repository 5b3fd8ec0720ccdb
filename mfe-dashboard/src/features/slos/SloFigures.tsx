import styled from 'styled-components';
import { SLO_STATUS_LABELS, type SloStatus } from '@cbh/contracts';
import { Badge, ProgressBar } from '@cbh/ui';
import { budgetText, OVERSPENT, STATUS_COLORS } from './slo-text';

/** An objective's status in words, in its colour (the words carry it: colour alone tells no one who cannot see it). */
export function SloStatusBadge({ status }: { status: SloStatus }) {
  return (
    <Badge $color={STATUS_COLORS[status]} data-testid="slo-status">
      {SLO_STATUS_LABELS[status]}
    </Badge>
  );
}

// a note's size whatever the figure's: beside a stat card's large figure the words would take a line of their own
const Overspent = styled.span`
  font-size: 13px;
  font-weight: 400;
`;

const Budget = styled.span`
  display: inline-grid;
  gap: 4px;
  min-width: 80px;
  width: 100%;
  max-width: 140px;
  font-variant-numeric: tabular-nums;
`;

/**
 * The error budget left, as a percentage over a small bar in the status's colour. The bar is drawn for the eye only:
 * the percentage says what it shows, and a budget overspent leaves it empty.
 */
export function BudgetLeft({ remaining, status }: { remaining: number; status: SloStatus }) {
  return (
    <Budget>
      <span>
        {budgetText(remaining, false)}
        {remaining < 0 ? <Overspent> {OVERSPENT}</Overspent> : null}
      </span>
      <span aria-hidden="true">
        <ProgressBar value={remaining * 100} max={100} label="Error budget left" color={STATUS_COLORS[status]} />
      </span>
    </Budget>
  );
}
