import styled from 'styled-components';
import { Muted, theme } from '@cbh/ui';

const Footer = styled.footer`
  display: grid;
  grid-template-columns: 2fr 1fr 1fr;
  gap: 24px;
  margin-top: 48px;
  padding-top: 24px;
  border-top: 1px solid ${theme.colors.border};
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

// The footer's links are placeholders until the resources exist.
const LINK_GROUPS = [
  ['Resources', ['Documentation', 'API Reference', 'Code Examples', 'Best Practices']],
  ['Community', ['GitHub Repository', 'Discord Community', 'Stack Overflow', 'Blog Posts']],
] as const;

/** The learning page's footer: what the product is, and its (placeholder) resource and community links. */
export function SiteFooter() {
  return (
    <Footer>
      <div>
        <h2>Circuit Breaker Hub</h2>
        <Muted>An interactive hub for learning and operating circuit-breaker resilience patterns.</Muted>
        <Muted style={{ marginTop: 8 }}>Built for educational purposes.</Muted>
        <Muted>A school project.</Muted>
      </div>
      {LINK_GROUPS.map(([group, links]) => (
        <nav key={group} aria-label={group}>
          <h2>{group}</h2>
          <ul>
            {links.map((name) => (
              <li key={name}>
                <a href="#">{name}</a>
              </li>
            ))}
          </ul>
        </nav>
      ))}
    </Footer>
  );
}
