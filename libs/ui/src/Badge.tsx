import styled from 'styled-components';
import { roleLabel, type BreakerStateName } from '@cbh/contracts';
import { theme } from './theme';

export const Badge = styled.span<{ $color?: string }>`
  display: inline-block;
  padding: 2px 8px;
  border-radius: 999px;
  font-size: 12px;
  font-weight: 600;
  /* a pill of one line: in a narrow row it moves below its neighbours rather than fold in two */
  white-space: nowrap;
  color: ${theme.colors.primaryText};
  background: ${({ $color = theme.colors.primary }) => $color};
`;

export function RoleBadge({ role }: { role: string | null | undefined }) {
  return <Badge data-testid="role-badge">{roleLabel(role)}</Badge>;
}

export const Dot = styled.span<{ $color: string }>`
  display: inline-block;
  width: 8px;
  height: 8px;
  border-radius: 50%;
  flex: none;
  background: ${({ $color }) => $color};
`;

/** Breaker state colours: CLOSED green, HALF_OPEN amber, OPEN red. */
export const STATE_COLORS: Record<BreakerStateName, string> = {
  CLOSED: theme.colors.closed,
  HALF_OPEN: theme.colors.halfOpen,
  OPEN: theme.colors.open,
};

export function StateBadge({ state }: { state: BreakerStateName }) {
  return (
    <Badge $color={STATE_COLORS[state]} data-testid="state-badge">
      {state}
    </Badge>
  );
}
