import styled from 'styled-components';
import { BURN_RATE_WINDOWS, firingBurnAlerts, type SloView } from '@cbh/contracts';
import { Badge, BadgeList, Card, DataTable, Muted, SectionTitle, theme } from '@cbh/ui';
import { alertsOf, burnRateText, burnWindowText } from './slo-text';

const Note = styled(Muted)`
  margin-bottom: 12px;
  font-size: 14px;
`;

const Rate = styled.span<{ $over: boolean }>`
  font-variant-numeric: tabular-nums;
  font-weight: ${({ $over }) => ($over ? 700 : 400)};
`;

// a window's name may take two lines ('30 / minutes') and the cells keep less room between them, so that the three
// columns fit a phone without scrolling
const Compact = styled.div`
  && th,
  && td {
    padding-left: 8px;
    padding-right: 8px;
  }
`;
const WindowName = styled.th`
  && {
    white-space: normal;
  }
`;

const SEVERITY_COLORS = { page: theme.colors.orange, ticket: theme.colors.yellow } as const;

/** Which alerts fire now (both their windows over the rate), in a sentence. */
function firingText(slo: SloView): string {
  const firing = firingBurnAlerts(slo.burnRates);
  if (firing.length === 0) return 'No burn-rate alert fires: no pair of windows burns faster than its alert allows.';
  const each = firing.map(
    (alert) => `${alert.severity} (${burnWindowText(alert.long)} and ${burnWindowText(alert.short)} over ${burnRateText(alert.burnRate)})`,
  );
  return `Firing: ${each.join('; ')}.`;
}

/**
 * How fast the budget burns over each of the 7 windows (1× spends it exactly over the objective's window), each window
 * marked where it burns faster than an alert it takes part in allows. An alert fires when both its windows are marked.
 */
export function BurnRates({ slo }: { slo: SloView }) {
  return (
    <Card aria-labelledby="burn-rates-title">
      <SectionTitle id="burn-rates-title">Burn rates</SectionTitle>
      <Note data-testid="burn-alerts">{firingText(slo)}</Note>
      <Compact>
        <DataTable label="Burn rate of each window" minWidth={280} columns={['Window', 'Rate', 'Alert thresholds']}>
          {BURN_RATE_WINDOWS.map((window) => {
            const rate = slo.burnRates[window];
            const alerts = alertsOf(window);
            const over = alerts.filter((alert) => rate !== null && rate > alert.burnRate);
            return (
              <tr key={window} data-testid={`burn-${window}`} data-over={over.length > 0 || undefined}>
                <WindowName scope="row">{burnWindowText(window)}</WindowName>
                <td>
                  <Rate $over={over.length > 0}>{burnRateText(rate)}</Rate>
                </td>
                <td>
                  <BadgeList>
                    {alerts.map((alert) => (
                      <li key={`${alert.severity}-${alert.burnRate}`}>
                        {over.includes(alert) ? (
                          <Badge
                            $color={SEVERITY_COLORS[alert.severity]}
                          >{`Over ${burnRateText(alert.burnRate)} (${alert.severity})`}</Badge>
                        ) : (
                          <Muted as="span">{`${burnRateText(alert.burnRate)} (${alert.severity})`}</Muted>
                        )}
                      </li>
                    ))}
                  </BadgeList>
                </td>
              </tr>
            );
          })}
        </DataTable>
      </Compact>
    </Card>
  );
}
