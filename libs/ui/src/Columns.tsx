import styled from 'styled-components';

/** Columns side by side (a grid-template-columns value) that stack into one below 900 px. */
export const Columns = styled.div<{ $columns: string; $gap?: number }>`
  display: grid;
  grid-template-columns: ${({ $columns }) => $columns};
  gap: ${({ $gap = 16 }) => $gap}px;
  align-items: start;
  @media (max-width: 900px) {
    grid-template-columns: 1fr;
  }
`;
