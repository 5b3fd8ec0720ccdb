import styled from 'styled-components';
import { PERMISSIONS, type Permission } from '@cbh/contracts';

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

const Options = styled.ul`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(210px, 100%), 1fr));
  gap: 8px 16px;
  margin: 0;
  padding: 0;
  list-style: none;
  label {
    display: flex;
    align-items: center;
    gap: 8px;
    font-size: 14px;
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
  const toggle = (permission: Permission, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(permission);
    else next.delete(permission);
    onChange(next);
  };
  return (
    <Group>
      <legend>{legend}</legend>
      <Options>
        {PERMISSIONS.filter((permission) => allowed.includes(permission)).map((permission) => (
          <li key={permission}>
            <label>
              <input type="checkbox" checked={selected.has(permission)} onChange={(event) => toggle(permission, event.target.checked)} />
              {permission}
            </label>
          </li>
        ))}
      </Options>
    </Group>
  );
}
