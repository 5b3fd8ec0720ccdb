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
    gap: 6px;
    font-size: 14px;
  }
`;

// The footer's links are placeholders until the resources exist.
const RESOURCES = ['Documentation', 'API Reference', 'Code Examples', 'Best Practices'];
const COMMUNITY = ['GitHub Repository', 'Discord Community', 'Stack Overflow', 'Blog Posts'];

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
      <nav aria-label="Resources">
        <h2>Resources</h2>
        <ul>
          {RESOURCES.map((name) => (
            <li key={name}>
              <a href="#">{name}</a>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Community">
        <h2>Community</h2>
        <ul>
          {COMMUNITY.map((name) => (
            <li key={name}>
              <a href="#">{name}</a>
            </li>
          ))}
        </ul>
      </nav>
    </Footer>
  );
}
