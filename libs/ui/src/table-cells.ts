import { css } from 'styled-components';
import { theme } from './theme';

/**
 * The cells of both of the library's tables (DataTable and ResponsiveTable): lines between rows, muted headings on one
 * line, and `data-nowrap` for a cell of one line (a date), the table scrolling sideways rather than the row growing.
 * Each table sets its cells' padding.
 */
export const tableCells = css`
  width: 100%;
  border-collapse: collapse;
  font-size: 14px;
  th,
  td {
    text-align: left;
    vertical-align: middle;
    border-bottom: 1px solid ${theme.colors.border};
  }
  th {
    font-weight: 600;
    color: ${theme.colors.muted};
    white-space: nowrap;
  }
  td[data-nowrap] {
    white-space: nowrap;
  }
`;
