import styled from 'styled-components';
import { theme } from '@cbh/ui';

/* A timeline as the console's pages show one (a drill's, an alert group's): a time, then a dot and the words. */

export const TimelineList = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  li {
    display: grid;
    grid-template-columns: max-content minmax(0, 1fr);
    gap: 4px 12px;
    padding: 8px 0;
    border-bottom: 1px solid ${theme.colors.border};
    font-size: 14px;
  }
  li:last-child {
    border-bottom: 0;
  }
  time {
    color: ${theme.colors.muted};
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }
  @media (max-width: 480px) {
    li {
      grid-template-columns: minmax(0, 1fr);
    }
  }
`;

// inline, so that a long line wraps under its dot rather than leaving the dot on a line of its own on a phone
export const TimelineText = styled.span`
  overflow-wrap: anywhere;
  > span:first-child {
    margin-right: 8px;
    vertical-align: middle;
  }
`;
