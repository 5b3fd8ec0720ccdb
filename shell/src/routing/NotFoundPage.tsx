import styled from 'styled-components';
import { Link, useLocation } from '@cbh/router';
import { ROUTES } from '@cbh/contracts';
import { Card, Muted, PageHeader, theme } from '@cbh/ui';
import { useProbedSession } from '../session/session-context';
import { componentAt } from './component-descriptions';

const Ways = styled.nav`
  display: flex;
  flex-wrap: wrap;
  gap: 8px 12px;
  margin-top: 20px;
`;

/** A link that looks like a button (the site's links, not a browser navigation). */
const Way = styled(Link)<{ $primary?: boolean }>`
  display: inline-flex;
  align-items: center;
  min-height: 36px;
  padding: 6px 14px;
  border: 1px solid ${({ $primary }) => ($primary ? theme.colors.primary : theme.colors.border)};
  border-radius: ${theme.radius};
  background: ${({ $primary }) => ($primary ? theme.colors.primary : theme.colors.surface)};
  color: ${({ $primary }) => ($primary ? theme.colors.primaryText : theme.colors.text)};
  font-size: 14px;
  font-weight: 500;
  text-decoration: none;
  @media (pointer: coarse) {
    min-height: 44px;
  }
`;

const Component = styled.section`
  margin-top: 20px;
  padding-top: 16px;
  border-top: 1px solid ${theme.colors.border};
  h2 {
    margin: 0 0 6px;
    font-size: 18px;
  }
  p + p {
    margin-top: 6px;
  }
`;

/**
 * Any path no page has: the spec's two sentences, then a way on — home, and the dashboard when signed in. For one of
 * the sidebar's service components without a page of its own, it also says what that component is.
 */
export function NotFoundPage() {
  const { pathname } = useLocation();
  const signedIn = Boolean(useProbedSession());
  const component = componentAt(pathname);
  return (
    <Card>
      <PageHeader title="404 Page Not Found" description="Did you forget to add the page to the router?" />
      <Muted>
        There is no page at <code>{pathname}</code>.
      </Muted>
      {component ? (
        <Component aria-labelledby="component-title">
          <h2 id="component-title">{component.label}</h2>
          <Muted>
            A service component of the Service Logic sidebar ({component.category}, {component.statusText.toLowerCase()}).
          </Muted>
          <p style={{ margin: 0 }}>{component.description}</p>
          <Muted>It has no page of its own yet.</Muted>
        </Component>
      ) : null}
      <Ways aria-label="Ways on">
        <Way to={ROUTES.home.path} $primary={!signedIn}>
          Go to the home page
        </Way>
        {signedIn ? (
          <Way to={ROUTES.dashboard.path} $primary>
            Open the dashboard
          </Way>
        ) : null}
      </Ways>
    </Card>
  );
}
