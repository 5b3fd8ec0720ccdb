import { RECENT_USER_DAYS, type UserSummary } from '@cbh/contracts';
import { plural, StatCard, StatGrid } from '@cbh/ui';

/** The four figures over every account (the server counts them, whatever page of the table is shown). */
export function UserStatCards({ summary }: { summary: UserSummary }) {
  return (
    <StatGrid>
      <StatCard label="Total Users" value={summary.total} />
      <StatCard label="Active Users" value={summary.active} note="accounts enabled" />
      <StatCard label="Pending Invites" value={summary.pendingInvites} note="invitations not yet accepted" />
      <StatCard label="Recent Users" value={summary.recent} note={`joined in the last ${plural(RECENT_USER_DAYS, 'day')}`} />
    </StatGrid>
  );
}
