import styled from 'styled-components';
import { Link } from '@cbh/router';
import { theme } from '@cbh/ui';

/** The dashboard's lists: a row per entry, its parts spread out and wrapping on a phone. */
export const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  li {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 4px 12px;
    padding: 8px 0;
    border-bottom: 1px solid ${theme.colors.border};
    font-size: 14px;
  }
  li:last-child {
    border-bottom: 0;
  }
`;

/** Buttons or badges side by side, wrapping on a narrow card. */
export const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;

/** A row's main words (a name and what happened), wrapping before the moment at its end. */
export const RowMain = styled.span`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 4px 8px;
  min-width: 0;
  overflow-wrap: anywhere;
`;

export const SectionTitle = styled.h2`
  margin: 0 0 12px;
  font-size: 18px;
`;

export const SubTitle = styled.h3`
  margin: 16px 0 4px;
  font-size: 15px;
`;

/** A link under a card's list, to the page with all of it. */
export const MoreLink = styled(Link)`
  display: inline-block;
  margin-top: 12px;
  font-size: 14px;
  color: ${theme.colors.primary};
`;

/** A card's empty state: what it would show, and the one action that fills it. */
export const Empty = styled.div`
  display: grid;
  justify-items: start;
  gap: 12px;
  padding: 8px 0;
  font-size: 14px;
  color: ${theme.colors.muted};
`;

/** A row's second line: why it happened, what it says. */
export const Detail = styled.span`
  flex-basis: 100%;
  color: ${theme.colors.muted};
  font-size: 13px;
  overflow-wrap: anywhere;
`;
