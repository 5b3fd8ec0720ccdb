import styled, { css } from 'styled-components';
import { controlStates, theme } from './theme';

export type ButtonVariant = 'primary' | 'outline' | 'ghost';

const variants = {
  primary: css`
    background: ${theme.colors.primary};
    color: ${theme.colors.primaryText};
    border-color: ${theme.colors.primary};
  `,
  outline: css`
    background: ${theme.colors.surface};
    color: ${theme.colors.text};
    border-color: ${theme.colors.border};
  `,
  ghost: css`
    background: transparent;
    color: ${theme.colors.text};
    border-color: transparent;
  `,
};

const buttonStyle = css<{ $variant?: ButtonVariant }>`
  display: inline-flex;
  align-items: center;
  gap: 6px;
  padding: 6px 14px;
  border: 1px solid;
  border-radius: ${theme.radius};
  font: inherit;
  font-size: 14px;
  font-weight: 500;
  text-decoration: none;
  cursor: pointer;
  /* a finger needs a bigger target than a mouse: 44 px, as WCAG 2.5.5 asks of a primary control */
  @media (pointer: coarse) {
    min-height: 44px;
  }
  ${({ $variant = 'primary' }) => variants[$variant]}
  ${controlStates}
`;

export const Button = styled.button<{ $variant?: ButtonVariant }>`
  ${buttonStyle}
`;

/** A link that looks like a button, for browser navigations such as /api/login. */
export const ButtonLink = styled.a<{ $variant?: ButtonVariant }>`
  ${buttonStyle}
`;

/** A finger-sized square button (44 × 44 px, the size WCAG 2.5.5 asks of a primary control). */
export const IconButton = styled.button`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  flex: none;
  width: 44px;
  height: 44px;
  padding: 0;
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  background: ${theme.colors.surface};
  color: ${theme.colors.text};
  cursor: pointer;
  &:focus-visible {
    outline: 2px solid ${theme.colors.primary};
    outline-offset: 2px;
  }
`;
