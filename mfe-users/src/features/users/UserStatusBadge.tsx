import type { UserView } from '@cbh/contracts';
import { Badge, theme } from '@cbh/ui';
import { userStatus, type UserStatus } from './user-status';

// darker shades than the theme's warning and inactive colours, so white text keeps a readable contrast
const STATUS_COLORS: Record<UserStatus, string> = {
  Active: theme.colors.success,
  Pending: theme.colors.halfOpen,
  Inactive: theme.colors.muted,
};

export function UserStatusBadge({ user }: { user: UserView }) {
  const status = userStatus(user);
  return (
    <Badge $color={STATUS_COLORS[status]} data-testid="status-badge">
      {status}
    </Badge>
  );
}
