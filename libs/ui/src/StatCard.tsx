import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Card, Muted } from './Card';
import { CardGrid } from './Table';
import { NARROW_SCREEN, theme } from './theme';

/** Stat cards two abreast even on a phone, where one card to a row would fill a screen with four figures. */
export const StatGrid = styled(CardGrid)`
  grid-template-columns: repeat(auto-fit, minmax(min(140px, 100%), 1fr));
  ${NARROW_SCREEN} {
    gap: 12px;
  }
`;

const Figure = styled(Card)`
  ${NARROW_SCREEN} {
    padding: 14px;
  }
`;

const Value = styled.div`
  font-size: 28px;
  font-weight: 700;
  margin: 4px 0;
  ${NARROW_SCREEN} {
    font-size: 20px;
  }
`;

const Label = styled.h3`
  margin: 0;
  font-size: 14px;
  font-weight: 500;
  color: ${theme.colors.muted};
`;

const Change = styled.span<{ $trend: 'up' | 'down' | 'flat' }>`
  font-size: 13px;
  color: ${({ $trend }) => ($trend === 'up' ? theme.colors.success : $trend === 'down' ? theme.colors.destructive : theme.colors.muted)};
`;

/** A figure with its label and, optionally, how it changed. */
export function StatCard({
  label,
  value,
  change,
  note,
}: {
  label: string;
  value: ReactNode;
  change?: { text: string; trend: 'up' | 'down' | 'flat' };
  note?: string;
}) {
  return (
    <Figure aria-label={label}>
      <Label>{label}</Label>
      <Value>{value}</Value>
      {change ? <Change $trend={change.trend}>{change.text}</Change> : null}
      {note ? <Muted style={{ fontSize: 13 }}>{note}</Muted> : null}
    </Figure>
  );
}
