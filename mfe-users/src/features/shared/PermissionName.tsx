import styled from 'styled-components';
import { permissionLabel } from '@cbh/contracts';
import { Badge, BadgeList, theme } from '@cbh/ui';

const Key = styled.code`
  margin-left: 6px;
  font-size: 12px;
  color: ${theme.colors.muted};
  overflow-wrap: anywhere;
`;

/** "Read the audit log (audit_access)": what controls name a permission by, for people and for screen readers. */
export const permissionText = (permission: string) => `${permissionLabel(permission)} (${permission})`;

/** A permission's name, its key beside it in small type as a hint (the key is what the API and tokens speak). */
export function PermissionName({ permission }: { permission: string }) {
  return (
    <span>
      {permissionLabel(permission)}
      <Key>{permission}</Key>
    </span>
  );
}

/** Permissions as badges by their names, each key on hover. */
export function PermissionBadges({ permissions, label }: { permissions: readonly string[]; label?: string }) {
  return (
    <BadgeList aria-label={label}>
      {permissions.map((permission) => (
        <li key={permission}>
          <Badge $color={theme.colors.muted} title={permission}>
            {permissionLabel(permission)}
          </Badge>
        </li>
      ))}
    </BadgeList>
  );
}
