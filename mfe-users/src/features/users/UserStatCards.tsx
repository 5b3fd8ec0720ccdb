import type { UserView } from '@cbh/contracts';
import { plural, StatCard, StatGrid } from '@cbh/ui';
import { RECENT_USER_DAYS, userCounts } from './user-status';

export function UserStatCards({ users }: { users: readonly UserView[] }) {
  const counts = userCounts(users);
  return (
    <StatGrid>
      <StatCard label="Total Users" value={counts.total} />
      <StatCard label="Active Users" value={counts.active} note="accounts enabled" />
      <StatCard label="Pending Invites" value={counts.pendingInvites} note="invitations not yet accepted" />
      <StatCard label="Recent Users" value={counts.recent} note={`joined in the last ${plural(RECENT_USER_DAYS, 'day')}`} />
    </StatGrid>
  );
}
