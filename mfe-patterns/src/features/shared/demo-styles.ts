import styled from 'styled-components';
import { theme } from '@cbh/ui';

/** The pieces the demonstration pages share: a row of controls, a list of entries, a reason a button waits. */
export const Controls = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: 8px 12px;
  margin-bottom: 16px;
`;

export const EntryList = styled.ol`
  list-style: none;
  margin: 0;
  padding: 0;
  display: grid;
  gap: 8px;
`;

export const Entry = styled.li`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px 12px;
  padding: 10px 12px;
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  background: ${theme.colors.surface};
  font-size: 14px;
  code {
    font-size: 12px;
    overflow-wrap: anywhere;
  }
`;

export const Reason = styled.span`
  font-size: 13px;
  color: ${theme.colors.muted};
`;
