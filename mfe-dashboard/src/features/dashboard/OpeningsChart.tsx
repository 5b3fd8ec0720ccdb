import styled from 'styled-components';
import type { DashboardHealth } from '@cbh/contracts';
import { Muted, plural, theme } from '@cbh/ui';

const BAR = 10;
const GAP = 2;
const HEIGHT = 40;

const Figure = styled.figure`
  margin: 0;
  svg {
    display: block;
    width: 100%;
    height: ${HEIGHT}px;
  }
`;

const Scale = styled(Muted)`
  display: flex;
  justify-content: space-between;
  font-size: 12px;
`;

const hoursAgo = (fromEnd: number) => (fromEnd === 0 ? 'this hour' : fromEnd === 1 ? 'an hour ago' : `${fromEnd} hours ago`);

/**
 * The openings per hour as bars, the current hour last: an hour with none shows a sliver, so the day's shape reads at
 * a glance; each bar tells its count on hover, and the whole is summed up for assistive technology.
 */
export function OpeningsChart({ openings }: { openings: DashboardHealth['openings'] }) {
  const total = openings.reduce((sum, hour) => sum + hour.count, 0);
  const most = Math.max(1, ...openings.map((hour) => hour.count));
  const width = openings.length * (BAR + GAP) - GAP;
  const summary = `${plural(total, 'opening')} in the last ${openings.length} hours${total > 0 ? `, at most ${most} in one hour` : ''}`;
  return (
    <Figure data-testid="openings-chart" data-total={total}>
      <svg viewBox={`0 0 ${width} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={summary}>
        {openings.map((hour, i) => {
          const height = hour.count === 0 ? 1 : Math.max(4, (hour.count / most) * HEIGHT);
          return (
            <rect
              key={hour.hour}
              x={i * (BAR + GAP)}
              y={HEIGHT - height}
              width={BAR}
              height={height}
              rx={1}
              fill={hour.count > 0 ? theme.colors.open : theme.colors.border}
            >
              <title>{`${plural(hour.count, 'opening')}, ${hoursAgo(openings.length - 1 - i)}`}</title>
            </rect>
          );
        })}
      </svg>
      <Scale as="figcaption">
        <span>{openings.length} h ago</span>
        <span>{plural(total, 'opening')}</span>
        <span>now</span>
      </Scale>
    </Figure>
  );
}
