import { createGlobalStyle } from 'styled-components';

export const theme = {
  colors: {
    background: '#f8fafc',
    surface: '#ffffff',
    border: '#e2e8f0',
    text: '#0f172a',
    muted: '#475569',
    primary: '#2563eb',
    primaryText: '#ffffff',
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

/** Below this width the chrome makes room: the sidebar starts shrunk, the top bar wraps. */
export const NARROW_SCREEN_PX = 760;

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
`;
