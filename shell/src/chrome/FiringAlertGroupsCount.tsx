import styled from 'styled-components';
import { useGetAlertGroupSummaryQuery } from '@cbh/api-client';
import { ROUTES } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { theme } from '@cbh/ui';

/* the open-breakers count's pill, in orange to tell the two apart; it shows only while something fires */
const Count = styled(Link)`
  /* 24 px tall: a finger's target (WCAG 2.5.8) */
  display: inline-flex;
  align-items: center;
  min-height: 24px;
  padding: 2px 8px;
  border-radius: 999px;
  border: 1px solid ${theme.colors.orange};
  background: ${theme.colors.orange};
  color: ${theme.colors.primaryText};
  font-size: 12px;
  font-weight: 600;
  text-decoration: none;
  white-space: nowrap;
  &:focus-visible {
    outline: 2px solid ${theme.colors.primary};
    outline-offset: 2px;
  }
`;

/**
 * How many alert groups are firing (neither acknowledged nor silenced), linking to On Call; for those who may act on
 * them (`canAct`: circuit_breaker_operate, and the page's circuit_breaker_view). Read once, then kept current by the
 * live connection (every alertGroupChanged refetches it); nothing is asked of the API for anyone else. Shown only while
 * one fires: a quiet bar otherwise.
 */
export function FiringAlertGroupsCount({ canAct }: { canAct: boolean }) {
  const { data } = useGetAlertGroupSummaryQuery(undefined, { skip: !canAct });
  if (!canAct || !data || data.firing <= 0) return null;
  const { firing } = data;
  const groups = firing === 1 ? 'alert group' : 'alert groups';
  // the name starts with the text shown, '2 firing' (speech input, WCAG 2.5.3), then says what fires: 'On Call' names
  // the page's own link
  return (
    <Count
      to={ROUTES.onCall.path}
      data-testid="firing-alert-groups"
      aria-label={`${firing} firing ${groups}`}
      title="Alert groups firing: open On Call to acknowledge them"
    >
      {firing} firing
    </Count>
  );
}
