import type { ReactNode } from 'react';
import { Link, NavLink } from '@cbh/router';
import styled from 'styled-components';
import { canOpen, ROUTES, type AuthUser, type RouteDefinition } from '@cbh/contracts';
import { ButtonLink, Dot, MenuSheet, NARROW_SCREEN, RoleBadge, theme, WIDE_SCREEN } from '@cbh/ui';
import { ServiceMenuLinks } from './Sidebar';

/** The pages the top bar links to, in this order; each shows only to those who may open it. */
const MAIN_ROUTES: readonly RouteDefinition[] = [
  ROUTES.home,
  ROUTES.dashboard,
  ROUTES.breakers,
  ROUTES.domains,
  ROUTES.notifications,
  ROUTES.users,
  ROUTES.coreLogic,
];

/** The pages this account may open from the top bar, or from the menu that stands in for it on a phone. */
function mainLinks(user: AuthUser | null): RouteDefinition[] {
  return MAIN_ROUTES.filter((route) => canOpen(user, route));
}

/** Whether the account may elevate itself to super_admin (the one elevation account, until it has). */
function mayElevate(user: AuthUser | null): boolean {
  return Boolean(user?.canElevate) && user?.role !== 'super_admin';
}

/* on a small desk (a tablet) the account's part moves to a second row rather than past the right edge; a phone keeps one row */
const Bar = styled.header`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px 18px;
  min-height: 56px;
  padding: 6px 20px;
  border-bottom: 1px solid ${theme.colors.border};
  background: ${theme.colors.surface};
  ${NARROW_SCREEN} {
    flex-wrap: nowrap;
    gap: 10px;
    padding: 6px 12px;
  }
`;

const Title = styled(Link)`
  /* 24 px tall at least: a target for a finger (WCAG 2.5.8) */
  line-height: 24px;
  font-weight: 700;
  font-size: 18px;
  text-decoration: none;
  white-space: nowrap;
  ${NARROW_SCREEN} {
    /* the one row keeps Live, the count and the menu button: on the narrowest phones the title gives way */
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    font-size: 16px;
  }
`;

/* between about 1100 and 1400 px the links take a second row rather than hide behind a scroll */
const Links = styled.nav`
  display: flex;
  flex-wrap: wrap;
  gap: 4px 14px;
  flex: 1;
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
  ${NARROW_SCREEN} {
    display: none;
  }
`;

const Account = styled.div`
  display: flex;
  align-items: center;
  gap: 10px;
  margin-left: auto;
  font-size: 14px;
  ${NARROW_SCREEN} {
    flex: none;
  }
`;

/** What the bar shows on a wide screen only: a phone finds it in the menu. */
const WideOnly = styled.div`
  display: contents;
  ${NARROW_SCREEN} {
    display: none;
  }
`;

const PhoneMenu = styled(MenuSheet)`
  ${WIDE_SCREEN} {
    display: none;
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

const MenuSection = styled.div`
  display: grid;
  gap: 4px;
`;

const Who = styled(MenuSection)`
  justify-items: start;
  padding-bottom: 12px;
  border-bottom: 1px solid ${theme.colors.border};
  overflow-wrap: anywhere;
  /* no hover on a touch screen to show it is a link */
  a {
    text-decoration: underline;
  }
`;

/** The menu's page links: rows a thumb can hit (44 px). */
const MenuLinks = styled.nav`
  display: grid;
  a {
    display: flex;
    align-items: center;
    min-height: 44px;
    padding: 0 8px;
    border-radius: 6px;
    text-decoration: none;
    font-weight: 500;
  }
  a.active {
    background: ${theme.colors.current};
    color: ${theme.colors.primary};
  }
`;

/** The account's actions in the menu, one full-width row each. */
const MenuActions = styled(MenuSection)`
  gap: 8px;
  a {
    justify-content: center;
    min-height: 44px;
  }
`;

function PageLinks({ links }: { links: readonly RouteDefinition[] }) {
  return links.map((route) => (
    <NavLink key={route.path} to={route.path} end={route === ROUTES.home}>
      {route.title}
    </NavLink>
  ));
}

function ElevateLink() {
  return (
    <ButtonLink as={Link} to={ROUTES.elevate.path} $variant="outline">
      {ROUTES.elevate.title}
    </ButtonLink>
  );
}

/** Logout (or Login, signed out) and Start Demo. */
function SessionLinks({ user }: { user: AuthUser | null }) {
  return (
    <>
      {user ? (
        <ButtonLink href="/api/logout" $variant="outline">
          Logout
        </ButtonLink>
      ) : (
        <ButtonLink href="/api/login" $variant="outline">
          Login
        </ButtonLink>
      )}
      <ButtonLink as={Link} to={user ? ROUTES.dashboard.path : '/api/login'} reloadDocument={!user}>
        Start Demo
      </ButtonLink>
    </>
  );
}

/** On a phone, everything the bar and the sidebar hold on a desk beyond the title, Live and the count. */
function MenuContent({ user, links }: { user: AuthUser | null; links: readonly RouteDefinition[] }) {
  return (
    <>
      {user ? (
        <Who>
          <AccountLink to={ROUTES.account.path}>{user.firstName || user.email}</AccountLink>
          <RoleBadge role={user.role} />
        </Who>
      ) : null}
      <MenuLinks aria-label="Main">
        <PageLinks links={links} />
      </MenuLinks>
      <MenuActions>
        {mayElevate(user) ? <ElevateLink /> : null}
        <SessionLinks user={user} />
      </MenuActions>
      <ServiceMenuLinks />
    </>
  );
}

/** `openBreakers` is the open-breaker count, which reads the store: the shell without one shows none. */
export function TopBar({ user, live = false, openBreakers = null }: { user: AuthUser | null; live?: boolean; openBreakers?: ReactNode }) {
  const links = mainLinks(user);
  return (
    <Bar>
      <Title to={ROUTES.home.path}>Circuit Breaker Hub</Title>
      <Links aria-label="Main">
        <PageLinks links={links} />
      </Links>
      <Account>
        {mayElevate(user) ? (
          <WideOnly>
            <ElevateLink />
          </WideOnly>
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
          </>
        ) : null}
        <WideOnly>
          {user ? (
            <>
              <AccountLink to={ROUTES.account.path} data-testid="account-name" title="Your account, tokens and sessions">
                {user.firstName || user.email}
              </AccountLink>
              <RoleBadge role={user.role} />
            </>
          ) : null}
          <SessionLinks user={user} />
        </WideOnly>
        <PhoneMenu title="Menu">
          <MenuContent user={user} links={links} />
        </PhoneMenu>
      </Account>
    </Bar>
  );
}
