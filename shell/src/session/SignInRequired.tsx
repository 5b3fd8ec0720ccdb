import { useEffect } from 'react';
import styled from 'styled-components';
import { Link, useLocation } from '@cbh/router';
import { ROUTES, type RouteDefinition } from '@cbh/contracts';
import { ButtonLink, Card, FullScreenSpinner, Muted, PageHeader } from '@cbh/ui';
import { rememberReturnPath } from './return-path';
import { headingOf } from './sign-in-routes';

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 12px 16px;
  margin-top: 16px;
`;

const here = ({ pathname, search, hash }: { pathname: string; search: string; hash: string }) => `${pathname}${search}${hash}`;

/**
 * What a signed-out visitor sees on a page for signed-in people: the page's name and a way to sign in that brings
 * them back here, instead of the page's own refusal (which is for accounts without the permission).
 */
export function SignInRequired({ route }: { route: RouteDefinition }) {
  const location = useLocation();
  const title = headingOf(route);
  return (
    <>
      <PageHeader title={title} description="This page is for signed-in people." />
      <Card aria-labelledby="sign-in-required-title">
        <h2 id="sign-in-required-title" style={{ margin: '0 0 8px', fontSize: 18 }}>
          Sign in to continue
        </h2>
        <Muted>You are signed out. Sign in and you will come back to {title}.</Muted>
        <Actions>
          <ButtonLink href="/api/login" onClick={() => rememberReturnPath(here(location))}>
            Sign in
          </ButtonLink>
          <Link to={ROUTES.home.path}>Back to the home page</Link>
        </Actions>
      </Card>
    </>
  );
}

/** Core Logic sends a signed-out visitor straight to the sign-in page; they come back to it afterwards. */
export function SignInRedirect() {
  const location = useLocation();
  useEffect(() => {
    rememberReturnPath(here(location));
    window.location.assign('/api/login');
  }, []);
  return <FullScreenSpinner label="Opening the sign-in page" />;
}
