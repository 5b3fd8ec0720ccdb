import type { ReactNode } from 'react';
import { Link, NavLink, useLocation } from '@cbh/router';
import styled from 'styled-components';
import { ROUTES, type AuthUser, type RouteDefinition } from '@cbh/contracts';
import { ButtonLink, Dot, MenuSheet, NARROW_SCREEN, RoleBadge, theme, WIDE_SCREEN } from '@cbh/ui';
import { GroupHeading, MoreLinks, MoreMenu, MoreWho, SettingsGroup, SMALL_DESK } from './MoreMenu';
import { navLinks, showsOneOf, type NavLinks } from './nav-links';
import { ServiceMenuLinks } from './Sidebar';

/** Whether the account may elevate itself to super_admin (the one elevation account, until it has). */
function mayElevate(user: AuthUser | null): boolean {
  return Boolean(user?.canElevate) && user?.role !== 'super_admin';
}

/* one row on every page from a phone up: the lesser links wait under More, the page shown never widens its link */
const Bar = styled.header`
  display: flex;
  flex-wrap: nowrap;
  align-items: center;
  gap: 18px;
  min-height: 56px;
  padding: 6px 20px;
  border-bottom: 1px solid ${theme.colors.border};
  background: ${theme.colors.surface};
  ${SMALL_DESK} {
    gap: 12px;
    padding: 6px 12px;
  }
  ${NARROW_SCREEN} {
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
  ${SMALL_DESK} {
    /* the one row keeps Live, the counts and the menu button (or the links, on a small desk): the title gives way on
       the narrowest phones, and on the narrowest desks while alert groups fire */
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    font-size: 16px;
  }
`;

/* the page shown: its link coloured and underlined, in the same weight, so no page moves the others */
const activeLink = `
  color: ${theme.colors.primary};
  text-decoration: underline;
  text-decoration-thickness: 2px;
  text-underline-offset: 6px;
`;

const Links = styled.nav`
  display: flex;
  align-items: center;
  gap: 14px;
  /* never narrower than its links: the bar would rather show it does not fit than draw them under the account */
  flex: 1 0 auto;
  > a {
    text-decoration: none;
    color: ${theme.colors.muted};
    font-size: 14px;
    line-height: 24px;
    white-space: nowrap;
  }
  > a.active {
    ${activeLink}
  }
  ${SMALL_DESK} {
    gap: 10px;
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
  white-space: nowrap;
  ${SMALL_DESK} {
    gap: 8px;
    /* Logout and Start Demo a little narrower */
    > div > a {
      padding-left: 10px;
      padding-right: 10px;
    }
  }
  ${NARROW_SCREEN} {
    flex: none;
  }
`;

/** The name and role on a large desk; on a small one they are under More. */
const LargeDeskOnly = styled.div`
  display: contents;
  ${SMALL_DESK} {
    display: none;
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

/** The word beside Live's dot: on a small desk the dot and its title say it (the word stays for screen readers). */
const LiveWord = styled.span`
  ${SMALL_DESK} {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
  ${NARROW_SCREEN} {
    position: static;
    width: auto;
    height: auto;
    overflow: visible;
    clip-path: none;
  }
`;

const AccountLink = styled(Link)`
  color: inherit;
  font-weight: 500;
  text-decoration: none;
  /* a long e-mail address gives way before the bar would wrap; the whole of it is the link's title */
  max-width: 220px;
  overflow: hidden;
  text-overflow: ellipsis;

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

/** The settings pages this account may open, as a group under its heading. */
function SettingsLinks({ links }: { links: readonly RouteDefinition[] }) {
  if (links.length === 0) return null;
  return (
    <SettingsGroup role="group" aria-label="Settings">
      <GroupHeading aria-hidden>Settings</GroupHeading>
      <PageLinks links={links} />
    </SettingsGroup>
  );
}

/** The lesser pages and the settings behind More, highlighted when the page shown is one of them. */
function More({ links, user }: { links: NavLinks; user: AuthUser | null }) {
  const { pathname } = useLocation();
  const under = [...links.more, ...links.settings];
  if (under.length === 0) return null;
  return (
    <MoreMenu label="More" active={showsOneOf(pathname, under)}>
      <MoreLinks>
        {user ? (
          <MoreWho>
            <AccountLink to={ROUTES.account.path}>{user.firstName || user.email}</AccountLink>
            <RoleBadge role={user.role} />
          </MoreWho>
        ) : null}
        <PageLinks links={links.more} />
        <SettingsLinks links={links.settings} />
      </MoreLinks>
    </MoreMenu>
  );
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

/** On a phone, everything the bar and the sidebar hold on a desk beyond the title, Live and the counts. */
function MenuContent({ user, links }: { user: AuthUser | null; links: NavLinks }) {
  return (
    <>
      {user ? (
        <Who>
          <AccountLink to={ROUTES.account.path}>{user.firstName || user.email}</AccountLink>
          <RoleBadge role={user.role} />
        </Who>
      ) : null}
      <MenuLinks aria-label="Main">
        <PageLinks links={[...links.main, ...links.more]} />
        <SettingsLinks links={links.settings} />
      </MenuLinks>
      <MenuActions>
        {mayElevate(user) ? <ElevateLink /> : null}
        <SessionLinks user={user} />
      </MenuActions>
      <ServiceMenuLinks />
    </>
  );
}

/**
 * `openBreakers` is the open-breaker count and `firingAlertGroups` the firing alert groups' count, which read the
 * store: the shell without one shows neither.
 */
export function TopBar({
  user,
  live = false,
  openBreakers = null,
  firingAlertGroups = null,
}: {
  user: AuthUser | null;
  live?: boolean;
  openBreakers?: ReactNode;
  firingAlertGroups?: ReactNode;
}) {
  const links = navLinks(user);
  return (
    <Bar>
      <Title to={ROUTES.home.path}>Circuit Breaker Hub</Title>
      <Links aria-label="Main">
        <PageLinks links={links.main} />
        <More links={links} user={user} />
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
              <LiveWord>{live ? 'Live' : 'Offline'}</LiveWord>
            </LiveStatus>
            {openBreakers}
            {firingAlertGroups}
          </>
        ) : null}
        <WideOnly>
          {user ? (
            <LargeDeskOnly>
              <AccountLink
                to={ROUTES.account.path}
                data-testid="account-name"
                title={`${user.firstName || user.email}: your account, tokens and sessions`}
              >
                {user.firstName || user.email}
              </AccountLink>
              <RoleBadge role={user.role} />
            </LargeDeskOnly>
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
