import styled from 'styled-components';

// grid children take min-width 0, so that a wide table scrolls in its own box rather than widening a phone's page
/** A record's page's cards, one under the other. */
export const DetailStack = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);
  gap: 20px;
`;
