import styled from 'styled-components';
import type { Permission } from '@cbh/contracts';
import { Switch } from '@cbh/ui/overlays';

const Toggles = styled.ul`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(210px, 100%), 1fr));
  gap: 10px 16px;
  margin: 0;
  padding: 0;
  list-style: none;
  li {
    display: flex;
    align-items: center;
    gap: 8px;
    font-size: 14px;
  }
`;

/**
 * One switch per permission on offer: an account's permissions, or a token's, which can only be chosen from those
 * its owner holds. `idPrefix` keeps the labels' ids apart when two lists could be on one page.
 */
export function PermissionToggles({
  offered,
  selected,
  onToggle,
  idPrefix = 'permission',
}: {
  offered: readonly Permission[];
  selected: ReadonlySet<string>;
  onToggle: (permission: Permission, on: boolean) => void;
  idPrefix?: string;
}) {
  return (
    <Toggles>
      {offered.map((permission) => (
        <li key={permission}>
          <Switch
            id={`${idPrefix}-${permission}`}
            label={permission}
            checked={selected.has(permission)}
            onCheckedChange={(on) => onToggle(permission, on)}
          />
          <label htmlFor={`${idPrefix}-${permission}`}>{permission}</label>
        </li>
      ))}
    </Toggles>
  );
}
