import styled from 'styled-components';
import type { StoredEvent } from '@cbh/simulations';
import { theme } from '@cbh/ui';

const COLORS: Record<StoredEvent['eventType'], string> = {
  OrderCreated: theme.colors.primary,
  OrderItemAdded: theme.colors.success,
  OrderShipped: theme.colors.orange,
  OrderCompleted: '#7c3aed',
};

const Frame = styled.figure`
  margin: 16px 0 0;
  overflow-x: auto;
  svg {
    display: block;
  }
`;

const STEP = 56;
const PAD = 24;

/** The stream drawn as a line of events; those after the position are faded, the position marked. */
export function EventTimeline({ events, position }: { events: readonly StoredEvent[]; position: number }) {
  const width = Math.max(320, PAD * 2 + Math.max(0, events.length - 1) * STEP);
  const x = (i: number) => PAD + i * STEP;
  return (
    // focusable: a long stream scrolls sideways inside it
    <Frame tabIndex={0} aria-label="Event timeline">
      <svg width={width} height={84} role="img" aria-label={`Timeline of ${events.length} events, viewing after event ${position}`}>
        <line x1={PAD} x2={width - PAD} y1={36} y2={36} stroke={theme.colors.border} strokeWidth={2} />
        {events.map((event, i) => (
          <g key={event.id} opacity={i < position ? 1 : 0.3}>
            <circle cx={x(i)} cy={36} r={9} fill={COLORS[event.eventType]} />
            <text x={x(i)} y={64} fontSize={11} textAnchor="middle" fill={theme.colors.muted}>
              {i + 1}
            </text>
          </g>
        ))}
        {position > 0 ? (
          <line x1={x(position - 1)} x2={x(position - 1)} y1={14} y2={50} stroke={theme.colors.text} strokeWidth={2} />
        ) : null}
      </svg>
      <figcaption style={{ fontSize: 12, color: theme.colors.muted }}>
        {Object.entries(COLORS).map(([type, color]) => (
          <span key={type} style={{ marginRight: 12 }}>
            <span aria-hidden style={{ color }}>
              ●
            </span>{' '}
            {type}
          </span>
        ))}
      </figcaption>
    </Frame>
  );
}
