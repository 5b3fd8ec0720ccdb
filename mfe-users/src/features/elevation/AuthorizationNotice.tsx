import styled from 'styled-components';
import type { AuthUser } from '@cbh/contracts';
import { Card, theme } from '@cbh/ui';

const Notice = styled(Card)`
  border-color: ${theme.colors.warning};
  margin-bottom: 16px;
`;

/**
 * Names the one account allowed to elevate. The API decides which account that is (canElevate), so the
 * e-mail shown is the signed-in account's own, never a configured address copied into the client.
 */
export function AuthorizationNotice({ user }: { user: AuthUser }) {
  let text: string;
  if (user.canElevate) {
    text = `Elevation is authorized for one admin account only: ${user.email}. Success grants super admin access.`;
  } else if (user.role === 'super_admin') {
    text = `${user.email} already has super admin access; there is nothing to elevate.`;
  } else {
    text = `Elevation is authorized for one admin account only, and ${user.email} is not that account.`;
  }
  return (
    <Notice role="note" aria-label="Authorization">
      {text}
    </Notice>
  );
}
