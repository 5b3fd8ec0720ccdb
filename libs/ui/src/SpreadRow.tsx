import styled from 'styled-components';

/**
 * A card's or section's head row: the title at the start, its actions at the end, wrapping below each other on a
 * narrow screen. Several remotes' cards open this way; `$gap` and `$below` (the space under the row) are pixels.
 * A heading inside loses its own margin, so that it lines up with the buttons beside it.
 */
export const SpreadRow = styled.div<{ $gap?: number; $below?: number }>`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${({ $gap = 12 }) => $gap}px;
  margin-bottom: ${({ $below = 0 }) => $below}px;
  h2,
  h3 {
    margin: 0;
  }
`;

/** Controls, badges or actions side by side, wrapping onto the next line on a narrow screen. */
export const WrapRow = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 8px;
`;
