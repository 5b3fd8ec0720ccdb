import styled from 'styled-components';
import { PermissionBadges } from '../shared/PermissionName';
import { PERMISSIONS, ROLE_DEFAULT_PERMISSIONS, ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES } from '@cbh/contracts';
import { Badge, Card, CardGrid, Muted, plural, theme } from '@cbh/ui';

const RoleCard = styled(Card)`
  display: grid;
  gap: 10px;
  align-content: start;
  h3 {
    margin: 0;
    font-size: 16px;
  }
`;

/** What each role is for, who holds it and what it grants by default. */
export function RoleManagement({ byRole }: { byRole: Readonly<Record<string, number>> }) {
  return (
    <CardGrid>
      {ROLES.map((role) => {
        const permissions = ROLE_DEFAULT_PERMISSIONS[role];
        const holders = byRole[role] ?? 0;
        const headingId = `role-card-${role}`;
        return (
          <RoleCard key={role} aria-labelledby={headingId}>
            <h3 id={headingId}>{ROLE_LABELS[role]}</h3>
            <Muted>{ROLE_DESCRIPTIONS[role]}</Muted>
            <strong>{plural(holders, 'user')}</strong>
            {/* super_admin is a wildcard: it holds every permission, including ones added later */}
            {permissions === PERMISSIONS ? (
              <Badge $color={theme.colors.primary}>All permissions</Badge>
            ) : (
              <PermissionBadges permissions={permissions} label={`${ROLE_LABELS[role]} permissions`} />
            )}
          </RoleCard>
        );
      })}
    </CardGrid>
  );
}
