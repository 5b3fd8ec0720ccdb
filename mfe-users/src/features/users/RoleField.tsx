import { ROLE_LABELS, ROLES, type Role } from '@cbh/contracts';
import { FieldLabel, Select } from '@cbh/ui';

/** The 'Role' select of the invite and role dialogs: the four roles by their labels. */
export function RoleField({ value, onChange }: { value: Role; onChange: (role: Role) => void }) {
  return (
    <FieldLabel>
      Role
      <Select value={value} onChange={(event) => onChange(event.target.value as Role)}>
        {ROLES.map((option) => (
          <option key={option} value={option}>
            {ROLE_LABELS[option]}
          </option>
        ))}
      </Select>
    </FieldLabel>
  );
}
