import styled from 'styled-components';

/** A borderless group of fields; `disabled` on it disables every control inside, as HTML does for fieldsets. */
export const Fieldset = styled.fieldset`
  display: grid;
  gap: 16px;
  margin: 0;
  padding: 0;
  border: 0;
  min-width: 0;
`;
