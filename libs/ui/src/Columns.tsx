import styled from 'styled-components';

/** Where Columns stand side by side: above 900 px (at 900 and below they stack into one). */
export const SIDE_BY_SIDE = '@media (min-width: 901px)';

/** Columns side by side (a grid-template-columns value) that stack into one at 900 px and below. */
export const Columns = styled.div<{ $columns: string; $gap?: number }>`
  display: grid;
  grid-template-columns: ${({ $columns }) => $columns};
  gap: ${({ $gap = 16 }) => $gap}px;
  align-items: start;
  @media (max-width: 900px) {
    grid-template-columns: 1fr;
  }
`;
