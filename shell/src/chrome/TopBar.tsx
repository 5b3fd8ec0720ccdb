import type { ReactNode } from 'react';
import { Link, NavLink } from '@cbh/router';
import styled from 'styled-components';
import { canOpen, ROUTES, type AuthUser } from '@cbh/contracts';
import { ButtonLink, Dot, NARROW_SCREEN_PX, RoleBadge, theme } from '@cbh/ui';

const Bar = styled.header`
  display: flex;
  align-items: center;
  gap: 18px;
  min-height: 56px;
  padding: 6px 20px;
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

/* between about 1100 and 1400 px the links take a second row rather than hide behind a scroll; a phone scrolls them */
const Links = styled.nav`
  display: flex;
  flex-wrap: wrap;
  gap: 4px 14px;
  flex: 1;
  overflow-x: auto;
  @media (max-width: ${NARROW_SCREEN_PX}px) {
    flex-wrap: nowrap;
  }
  a {
    text-decoration: none;
    color: ${theme.colors.muted};
    font-size: 14px;
    white-space: nowrap;
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
  @media (max-width: ${NARROW_SCREEN_PX}px) {
    /* an extra action (Elevate to Super Admin) must not push the bar wider than a phone */
    flex-wrap: wrap;
  }
`;

const LiveStatus = styled.span`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  font-size: 13px;
  color: ${theme.colors.muted};
`;

const AccountLink = styled(Link)`
  color: inherit;
  font-weight: 500;
  text-decoration: none;
  /* a comfortable target for a finger as well as a pointer */
  padding: 4px 2px;
  &:hover,
  &:focus-visible {
    text-decoration: underline;
  }
`;

/** Which optional links and actions the top bar shows for this account. */
export function chromeAccess(user: AuthUser | null) {
  return {
    breakers: canOpen(user, ROUTES.breakers),
    domains: canOpen(user, ROUTES.domains),
    notifications: canOpen(user, ROUTES.notifications),
    userManagement: canOpen(user, ROUTES.users),
    coreLogic: canOpen(user, ROUTES.coreLogic),
    elevate: Boolean(user?.canElevate) && user?.role !== 'super_admin',
  };
}

/** `openBreakers` is the open-breaker count, which reads the store: the shell without one shows none. */
export function TopBar({ user, live = false, openBreakers = null }: { user: AuthUser | null; live?: boolean; openBreakers?: ReactNode }) {
  const access = chromeAccess(user);
  return (
    <Bar>
      <Title to={ROUTES.home.path}>Circuit Breaker Hub</Title>
      <Links aria-label="Main">
        <NavLink to={ROUTES.home.path} end>
          {ROUTES.home.title}
        </NavLink>
        <NavLink to={ROUTES.dashboard.path}>{ROUTES.dashboard.title}</NavLink>
        {access.breakers ? <NavLink to={ROUTES.breakers.path}>{ROUTES.breakers.title}</NavLink> : null}
        {access.domains ? <NavLink to={ROUTES.domains.path}>{ROUTES.domains.title}</NavLink> : null}
        {access.notifications ? <NavLink to={ROUTES.notifications.path}>{ROUTES.notifications.title}</NavLink> : null}
        {access.userManagement ? <NavLink to={ROUTES.users.path}>{ROUTES.users.title}</NavLink> : null}
        {access.coreLogic ? <NavLink to={ROUTES.coreLogic.path}>{ROUTES.coreLogic.title}</NavLink> : null}
      </Links>
      <Account>
        {access.elevate ? (
          <ButtonLink as={Link} to={ROUTES.elevate.path} $variant="outline">
            {ROUTES.elevate.title}
          </ButtonLink>
        ) : null}
        {user ? (
          <>
            <LiveStatus
              role="status"
              data-testid="live-status"
              title={live ? 'Live updates connected' : 'Live updates disconnected; reconnecting'}
            >
              <Dot $color={live ? theme.colors.success : theme.colors.inactive} aria-hidden />
              {live ? 'Live' : 'Offline'}
            </LiveStatus>
            {openBreakers}
            <AccountLink to={ROUTES.account.path} data-testid="account-name" title="Your account, tokens and sessions">
              {user.firstName || user.email}
            </AccountLink>
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
        <ButtonLink as={Link} to={user ? ROUTES.dashboard.path : '/api/login'} reloadDocument={!user}>
          Start Demo
        </ButtonLink>
      </Account>
    </Bar>
  );
}
