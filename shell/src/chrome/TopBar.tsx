import { Link, NavLink } from '@cbh/router';
import styled from 'styled-components';
import { hasPermission, type AuthUser } from '@cbh/contracts';
import { ButtonLink, Dot, NARROW_SCREEN_PX, RoleBadge, theme } from '@cbh/ui';

const Bar = styled.header`
  display: flex;
  align-items: center;
  gap: 24px;
  height: 56px;
  padding: 0 20px;
  border-bottom: 1px solid ${theme.colors.border};
  background: ${theme.colors.surface};
  @media (max-width: ${NARROW_SCREEN_PX}px) {
    flex-wrap: wrap;
    height: auto;
    gap: 8px 16px;
    padding: 8px 12px;
  }
`;

const Title = styled(Link)`
  font-weight: 700;
  font-size: 18px;
  text-decoration: none;
  white-space: nowrap;
`;

const Links = styled.nav`
  display: flex;
  gap: 16px;
  flex: 1;
  overflow-x: auto;
  a {
    text-decoration: none;
    color: ${theme.colors.muted};
    font-size: 14px;
  }
  a.active {
    color: ${theme.colors.primary};
    font-weight: 600;
  }
`;

const Account = styled.div`
  display: flex;
  align-items: center;
  gap: 10px;
  font-size: 14px;
`;

const LiveStatus = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  font-size: 13px;
  color: ${theme.colors.muted};
`;

/** Which optional links and actions the top bar shows for this account. */
export function chromeAccess(user: AuthUser | null) {
  return {
    userManagement: hasPermission(user, 'user_management'),
    coreLogic: user?.role === 'super_admin',
    elevate: Boolean(user?.canElevate) && user?.role !== 'super_admin',
  };
}

export function TopBar({ user, live = false }: { user: AuthUser | null; live?: boolean }) {
  const access = chromeAccess(user);
  return (
    <Bar>
      <Title to="/">Circuit Breaker Hub</Title>
      <Links aria-label="Main">
        <NavLink to="/" end>
          Home
        </NavLink>
        <NavLink to="/dashboard">Dashboard</NavLink>
        <NavLink to="/domains">Domains</NavLink>
        {access.userManagement ? <NavLink to="/users">User Management</NavLink> : null}
        {access.coreLogic ? <NavLink to="/core-logic">Core Logic</NavLink> : null}
      </Links>
      <Account>
        {access.elevate ? (
          <ButtonLink as={Link} to="/elevate" $variant="outline">
            Elevate to Super Admin
          </ButtonLink>
        ) : null}
        {user ? (
          <>
            <LiveStatus role="status" data-testid="live-status" title={live ? 'Live updates connected' : 'Live updates disconnected; reconnecting'}>
              <Dot $color={live ? theme.colors.success : theme.colors.inactive} aria-hidden />
              {live ? 'Live' : 'Offline'}
            </LiveStatus>
            <span data-testid="account-name">{user.firstName || user.email}</span>
            <RoleBadge role={user.role} />
            <ButtonLink href="/api/logout" $variant="outline">
              Logout
            </ButtonLink>
          </>
        ) : (
          <ButtonLink href="/api/login" $variant="outline">
            Login
          </ButtonLink>
        )}
        <ButtonLink as={Link} to={user ? '/dashboard' : '/api/login'} reloadDocument={!user}>
          Start Demo
        </ButtonLink>
      </Account>
    </Bar>
  );
}
