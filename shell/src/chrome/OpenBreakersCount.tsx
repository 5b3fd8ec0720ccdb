import styled, { css } from 'styled-components';
import { useGetLatestMetricsQuery } from '@cbh/api-client';
import { ROUTES } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { theme } from '@cbh/ui';

// red while any breaker is open; a quiet outline at zero, so the bar does not shift when one opens
const pill = css<{ $open: boolean }>`
  /* 24 px tall: a finger's target (WCAG 2.5.8) */
  display: inline-flex;
  align-items: center;
  min-height: 24px;
  padding: 2px 8px;
  border-radius: 999px;
  border: 1px solid ${({ $open }) => ($open ? theme.colors.open : theme.colors.border)};
  background: ${({ $open }) => ($open ? theme.colors.open : 'transparent')};
  color: ${({ $open }) => ($open ? theme.colors.primaryText : theme.colors.muted)};
  font-size: 12px;
  font-weight: 600;
  text-decoration: none;
  white-space: nowrap;
`;

const Count = styled(Link)<{ $open: boolean }>`
  ${pill}
`;

// holds the count's place until the figures arrive: the links beside it wrap once, at the first paint, not later
const Placeholder = styled.span<{ $open: boolean }>`
  ${pill}
  visibility: hidden;
`;

/**
 * How many breakers are open now, linking to the wall; for holders of circuit_breaker_view only. The latest
 * metrics are read once, then kept current by the live connection (every metricsUpdate and stateChange).
 */
export function OpenBreakersCount({ canView }: { canView: boolean }) {
  const { data } = useGetLatestMetricsQuery(undefined, { skip: !canView });
  if (!canView) return null;
  if (!data) {
    return (
      <Placeholder $open={false} aria-hidden>
        0 open
      </Placeholder>
    );
  }
  const open = data.stats.filter((stats) => stats.state === 'OPEN').length;
  // the name starts with the text shown (for speech input) and says 'breakers': 'Circuit Breakers' names the wall's link
  return (
    <Count
      to={ROUTES.breakers.path}
      $open={open > 0}
      data-testid="open-breakers"
      aria-label={`${open} open ${open === 1 ? 'breaker' : 'breakers'}`}
    >
      {open} open
    </Count>
  );
}
