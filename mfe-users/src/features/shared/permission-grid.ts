import styled from 'styled-components';

/**
 * One control per permission, in as many columns as fit; `$item` is the element that holds a control beside its
 * name (a label around a checkbox, or the list item of a switch and its label).
 */
export const PermissionGrid = styled.ul<{ $rowGap: number; $item: 'label' | 'li' }>`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(210px, 100%), 1fr));
  gap: ${({ $rowGap }) => $rowGap}px 16px;
  margin: 0;
  padding: 0;
  list-style: none;
  ${({ $item }) => $item} {
    display: flex;
    align-items: center;
    gap: 8px;
    font-size: 14px;
  }
`;

/** A copy of `selected` with `permission` added (on) or taken away. */
export function togglePermission<P>(selected: ReadonlySet<P>, permission: P, on: boolean): Set<P> {
  const next = new Set(selected);
  if (on) next.add(permission);
  else next.delete(permission);
  return next;
}
