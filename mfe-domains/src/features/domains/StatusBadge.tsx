import styled, { keyframes } from 'styled-components';
import { Badge } from '@cbh/ui';
import { severityColor, statusLook, titleCase, UNKNOWN, type StatusIcon } from './domain-display';

const spin = keyframes`to { transform: rotate(360deg); }`;

const Pill = styled(Badge)`
  display: inline-flex;
  align-items: center;
  gap: 4px;
  white-space: nowrap;
  svg {
    width: 12px;
    height: 12px;
    flex: none;
  }
  svg[data-spinning] {
    animation: ${spin} 1s linear infinite;
  }
`;

const PATHS: Record<Exclude<StatusIcon, 'none'>, string> = {
  check: 'M3 8.5l3 3 7-7',
  clock: 'M8 4.5V8l2.5 1.5M14 8A6 6 0 1 1 2 8a6 6 0 0 1 12 0z',
  cross: 'M4 4l8 8M12 4l-8 8',
  spinner: 'M8 2a6 6 0 1 0 6 6',
};

function Icon({ icon }: { icon: StatusIcon }) {
  if (icon === 'none') return null;
  return (
    <svg
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      aria-hidden
      data-spinning={icon === 'spinner' || undefined}
    >
      <path d={PATHS[icon]} />
    </svg>
  );
}

/** A status in its colour with its icon (§4): green check, yellow clock, blue spinner, red cross, or grey. */
export function StatusBadge({ status, label }: { status: string | null | undefined; label?: string }) {
  const look = statusLook(status);
  return (
    <Pill $color={look.color} data-testid="status-badge" data-icon={look.icon}>
      <Icon icon={look.icon} />
      {label ?? (status ? titleCase(status) : UNKNOWN)}
    </Pill>
  );
}

export function SeverityBadge({ severity }: { severity: string }) {
  return (
    <Pill $color={severityColor(severity)} data-testid="severity-badge">
      {titleCase(severity)}
    </Pill>
  );
}
