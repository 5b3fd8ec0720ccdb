import styled from 'styled-components';
import { PATTERN_DEMOS, patternPath, ROUTES } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Muted, NARROW_SCREEN, theme } from '@cbh/ui';

const Footer = styled.footer`
  display: grid;
  grid-template-columns: 2fr 1fr 1fr;
  gap: 24px;
  margin-top: 48px;
  padding-top: 24px;
  border-top: 1px solid ${theme.colors.border};
  ${NARROW_SCREEN} {
    grid-template-columns: 1fr 1fr;
    > div:first-child {
      grid-column: 1 / -1;
    }
  }
  h2 {
    margin: 0 0 8px;
    font-size: 16px;
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 2px;
    font-size: 14px;
  }
  /* a link apart from any sentence: 24 px tall, a finger's target (WCAG 2.5.8) */
  a {
    display: inline-block;
    padding: 3px 0;
  }
`;

/** The hub's API reference (Swagger UI over its OpenAPI document): a page the API serves, outside the site's router. */
export const API_REFERENCE_PATH = '/api/docs';

interface FooterLink {
  name: string;
  /** A route of the site, or (`external`) a page the API serves. */
  to: string;
  external?: boolean;
}

/**
 * Every footer link goes to a page this hub serves. Of the spec's placeholders, API Reference and Best Practices (the
 * service layer's rules for calling dependencies through breakers) have one; Documentation, Code Examples and the
 * community links had nowhere to go and were removed. The pattern demonstrations, open to visitors, take their place.
 */
export const FOOTER_LINK_GROUPS: readonly (readonly [string, readonly FooterLink[]])[] = [
  [
    'Resources',
    [
      { name: 'API Reference', to: API_REFERENCE_PATH, external: true },
      { name: 'Best Practices', to: ROUTES.serviceLayer.path },
      { name: ROUTES.dataAccessLayer.title, to: ROUTES.dataAccessLayer.path },
    ],
  ],
  ['Patterns', PATTERN_DEMOS.map(({ slug, title }) => ({ name: title, to: patternPath(slug) }))],
];

/** The learning page's footer: what the product is, and links to the hub's reference and its public lessons. */
export function SiteFooter() {
  return (
    <Footer>
      <div>
        <h2>Circuit Breaker Hub</h2>
        <Muted>An interactive hub for learning and operating circuit-breaker resilience patterns.</Muted>
        <Muted style={{ marginTop: 8 }}>Built for educational purposes.</Muted>
        <Muted>A school project.</Muted>
      </div>
      {FOOTER_LINK_GROUPS.map(([group, links]) => (
        <nav key={group} aria-label={group}>
          <h2>{group}</h2>
          <ul>
            {links.map(({ name, to, external }) => (
              <li key={name}>{external ? <a href={to}>{name}</a> : <Link to={to}>{name}</Link>}</li>
            ))}
          </ul>
        </nav>
      ))}
    </Footer>
  );
}
