import { css } from 'styled-components';
import { theme } from '@cbh/ui';

/** A description list as the breaker screens show facts and figures: the term muted, its value bold. */
export const termsAndValues = css`
  dt {
    color: ${theme.colors.muted};
  }
  dd {
    margin: 0;
    font-weight: 600;
  }
`;
