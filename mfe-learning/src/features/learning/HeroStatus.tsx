import styled from 'styled-components';
import type { BreakerStats } from '@cbh/contracts';
import { Dot, Muted, PageHeader, STATE_COLORS } from '@cbh/ui';
import { countStates } from './monitoring';

const Counts = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 24px;
  list-style: none;
  margin: 8px 0 0;
  padding: 0;
  li {
    display: flex;
    align-items: center;
    gap: 8px;
    font-size: 15px;
  }
  strong {
    font-size: 22px;
  }
`;

const LABELS = [
  ['CLOSED', 'Closed'],
  ['HALF_OPEN', 'Half-Open'],
  ['OPEN', 'Open'],
] as const;

/**
 * The page's title with how many breakers are Closed, Half-Open and Open right now. `live` says the account may read
 * them: its counts show dashes until the figures arrive, with no sign-in hint, so nothing below moves when they do.
 */
export function HeroStatus({
  title,
  description,
  stats,
  live,
}: {
  title: string;
  description: string;
  stats: BreakerStats[] | undefined;
  live: boolean;
}) {
  const counts = live && stats ? countStates(stats) : null;
  return (
    <PageHeader title={title} description={description}>
      <div role="status" aria-label="System status">
        <Counts>
          {LABELS.map(([state, label]) => (
            <li key={state} data-testid={`hero-${state}`}>
              <Dot $color={STATE_COLORS[state]} aria-hidden />
              {label}: <strong>{counts ? counts[state] : '–'}</strong>
            </li>
          ))}
        </Counts>
        {live ? null : <Muted style={{ fontSize: 13, marginTop: 4 }}>Sign in to see the live states of your breakers.</Muted>}
      </div>
    </PageHeader>
  );
}
