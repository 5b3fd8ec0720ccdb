import styled from 'styled-components';
import { heldPermissions, type AuthUser } from '@cbh/contracts';
import { Card, NARROW_SCREEN, RoleBadge, SectionTitle, theme } from '@cbh/ui';
import { PermissionBadges } from '../shared/PermissionName';

const Facts = styled.dl`
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr);
  gap: 8px 16px;
  margin: 0;
  dt {
    color: ${theme.colors.muted};
  }
  dd {
    margin: 0;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  /* a phone: each term above its value, which then has the card's width (permission names unbroken) */
  ${NARROW_SCREEN} {
    grid-template-columns: minmax(0, 1fr);
    gap: 2px;
    dd {
      margin-bottom: 10px;
    }
  }
`;

/** Who the person is and what they may do, as the server judges it. */
export function ProfileCard({ me }: { me: AuthUser }) {
  const name = [me.firstName, me.lastName].filter(Boolean).join(' ');
  const held = heldPermissions(me);
  return (
    <Card aria-labelledby="profile-title">
      <SectionTitle id="profile-title">Profile</SectionTitle>
      <Facts>
        <dt>Name</dt>
        <dd>{name || '—'}</dd>
        <dt>E-mail</dt>
        <dd>{me.email}</dd>
        <dt>Role</dt>
        <dd>
          <RoleBadge role={me.role} />
        </dd>
        <dt>Permissions</dt>
        <dd>
          <PermissionBadges permissions={held} label="Your permissions" />
        </dd>
      </Facts>
    </Card>
  );
}
