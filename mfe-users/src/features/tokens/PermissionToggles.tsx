import styled from 'styled-components';
import { PERMISSIONS, type Permission } from '@cbh/contracts';
import { PermissionGrid, togglePermission } from '../shared/permission-grid';
import { PermissionName } from '../shared/PermissionName';

const Group = styled.fieldset`
  margin: 0;
  padding: 0;
  border: 0;
  min-width: 0;
  legend {
    padding: 0;
    margin-bottom: 8px;
    font-size: 13px;
    font-weight: 500;
  }
`;

/**
 * A checkbox per permission a token may be given: only those of `allowed` (its owner's), in the canonical order,
 * each labelled by its name.
 */
export function PermissionToggles({
  allowed,
  selected,
  onChange,
  legend = 'Permissions',
}: {
  allowed: readonly string[];
  selected: ReadonlySet<Permission>;
  onChange: (selected: Set<Permission>) => void;
  legend?: string;
}) {
  const toggle = (permission: Permission, on: boolean) => onChange(togglePermission(selected, permission, on));
  return (
    <Group>
      <legend>{legend}</legend>
      <PermissionGrid $rowGap={8} $item="label">
        {PERMISSIONS.filter((permission) => allowed.includes(permission)).map((permission) => (
          <li key={permission}>
            <label>
              <input type="checkbox" checked={selected.has(permission)} onChange={(event) => toggle(permission, event.target.checked)} />
              <PermissionName permission={permission} />
            </label>
          </li>
        ))}
      </PermissionGrid>
    </Group>
  );
}
