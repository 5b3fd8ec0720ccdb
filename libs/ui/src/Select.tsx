import styled, { css } from 'styled-components';
import { theme } from './theme';

const fieldStyle = css`
  font: inherit;
  font-size: 14px;
  padding: 8px 10px;
  border: 1px solid ${theme.colors.border};
  border-radius: 6px;
  background: ${theme.colors.surface};
  color: ${theme.colors.text};
`;

/**
 * A native select, styled: the platform's own picker is keyboard- and screen-reader-ready and, on phones, the
 * system's wheel, with no script to ship (a Radix Select would add its popper to every page that has one).
 */
export const Select = styled.select`
  ${fieldStyle}
`;

/** A text input in the same style. */
export const TextInput = styled.input`
  ${fieldStyle}
`;

/** A text area in the same style, for text of several lines (a list of addresses, a document). */
export const TextArea = styled.textarea`
  ${fieldStyle}
  min-height: 72px;
  resize: vertical;
`;

/** A label above its control. */
export const FieldLabel = styled.label`
  display: grid;
  gap: 6px;
  font-size: 14px;
  font-weight: 500;
`;
