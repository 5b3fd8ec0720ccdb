import styled from 'styled-components';
import { sloReportUrl } from '@cbh/api-client';
import { Card, Muted, SectionTitle, VisuallyHidden } from '@cbh/ui';
import { monthText, reportMonths } from './slo-text';

const List = styled.ul`
  display: grid;
  gap: 8px;
  margin: 12px 0 0;
  padding: 0;
  list-style: none;
  font-size: 14px;
  li {
    display: flex;
    flex-wrap: wrap;
    gap: 4px 12px;
  }
  a {
    display: inline-block;
    min-height: 24px;
  }
`;

/**
 * The monthly report of this month and the one before, a printable page or CSV, each in a new tab: the API writes
 * them (a page of its own, printed or saved as it is), so these are links, not part of this page.
 */
export function ReportLinks({ id, now = new Date() }: { id: number; now?: Date }) {
  return (
    <Card aria-labelledby="reports-title">
      <SectionTitle id="reports-title">Monthly reports</SectionTitle>
      <Muted style={{ fontSize: 14 }}>Each day’s good and bad events and the SLI, for the month in UTC.</Muted>
      <List>
        {reportMonths(now).map((month) => (
          <li key={month}>
            <strong>{monthText(month)}</strong>
            {(['html', 'csv'] as const).map((format) => (
              <a key={format} href={sloReportUrl(id, month, format)} target="_blank" rel="noopener noreferrer">
                {format === 'html' ? 'Printable page' : 'CSV'}
                <VisuallyHidden>{` of ${monthText(month)} (opens in a new tab)`}</VisuallyHidden>
              </a>
            ))}
          </li>
        ))}
      </List>
    </Card>
  );
}
