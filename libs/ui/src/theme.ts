import { createGlobalStyle, css } from 'styled-components';

export const theme = {
  colors: {
    background: '#f8fafc',
    surface: '#ffffff',
    border: '#e2e8f0',
    text: '#0f172a',
    muted: '#475569',
    primary: '#2563eb',
    primaryText: '#ffffff',
    /** Behind the link to the page being shown, in the sidebar and the menu. */
    current: '#eff6ff',
    destructive: '#dc2626',
    success: '#15803d',
    warning: '#ca8a04',
    inactive: '#94a3b8',
    closed: '#15803d',
    halfOpen: '#b45309',
    open: '#dc2626',
    // badge tones dark enough for white text (4.5:1 or more)
    yellow: '#a16207',
    orange: '#c2410c',
    grey: '#64748b',
  },
  radius: '8px',
  font: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
} as const;
export type Theme = typeof theme;

/** At this width and below the chrome makes room for a phone: a one-row top bar with a menu, no sidebar. */
const NARROW_SCREEN_PX = 760;
/** Media queries for either side of NARROW_SCREEN_PX. */
export const NARROW_SCREEN = `@media (max-width: ${NARROW_SCREEN_PX}px)`;
export const WIDE_SCREEN = `@media (min-width: ${NARROW_SCREEN_PX + 1}px)`;

/** How a control (button, switch) looks disabled and with keyboard focus: the same on every one. */
export const controlStates = css`
  &:disabled {
    opacity: 0.5;
    cursor: not-allowed;
  }
  &:focus-visible {
    outline: 2px solid ${theme.colors.primary};
    outline-offset: 2px;
  }
`;

export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  html, body, #root { height: 100%; }
  body {
    margin: 0;
    font-family: ${theme.font};
    color: ${theme.colors.text};
    background: ${theme.colors.background};
  }
  a { color: inherit; }
  /* a finger's target: a box of 24 px at least (WCAG 2.5.8), not the 13 px a browser draws for a mouse */
  @media (pointer: coarse) {
    /* :where keeps this a default: a control styled as something else (a switch) keeps its own size */
    :where(input[type='checkbox'], input[type='radio']) {
      width: 24px;
      height: 24px;
    }
  }
`;
