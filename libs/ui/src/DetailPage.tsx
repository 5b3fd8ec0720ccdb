import styled from 'styled-components';
import { Link } from '@cbh/router';
import { theme } from './theme';

/**
 * The page of one record (a breaker, a status page): min-width 0 lets the tables and charts inside shrink with a
 * narrow screen instead of widening the page.
 */
export const DetailPage = styled.div`
  min-width: 0;
  max-width: 100%;
`;

/** The link back to the list a DetailPage was opened from, above its header ("← All circuit breakers"). */
export const BackLink = styled(Link)`
  display: inline-block;
  margin-bottom: 12px;
  font-size: 14px;
  color: ${theme.colors.primary};
`;
