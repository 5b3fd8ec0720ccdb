import styled from 'styled-components';
import { Button, theme } from '@cbh/ui';

/** The drills' stop buttons: large and red, found at a glance while faults hit real traffic. */
export const BigStopButton = styled(Button)`
  padding: 12px 28px;
  min-height: 48px;
  font-size: 18px;
  font-weight: 700;
  color: ${theme.colors.primaryText};
  background: ${theme.colors.destructive};
  border-color: ${theme.colors.destructive};
`;
