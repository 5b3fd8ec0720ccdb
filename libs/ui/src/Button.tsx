import styled, { css } from 'styled-components';
import { theme } from './theme';

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
  ${({ $variant = 'primary' }) => variants[$variant]}
  &:disabled {
    opacity: 0.5;
    cursor: not-allowed;
  }
  &:focus-visible {
    outline: 2px solid ${theme.colors.primary};
    outline-offset: 2px;
  }
`;

export const Button = styled.button<{ $variant?: ButtonVariant }>`
  ${buttonStyle}
`;

/** A link that looks like a button, for browser navigations such as /api/login. */
export const ButtonLink = styled.a<{ $variant?: ButtonVariant }>`
  ${buttonStyle}
`;
