import styled from 'styled-components';
import { PERMISSION_MATRIX_SIZE, PERMISSIONS, ROLE_DEFAULT_PERMISSIONS, ROLE_LABELS, ROLES } from '@cbh/contracts';
import { Card, Muted, NARROW_SCREEN, ScrollArea, SectionTitle, Table, theme, WIDE_SCREEN } from '@cbh/ui';
import { PermissionName } from '../shared/PermissionName';

/** Fits a phone: headings wrap (role names, permission names above their keys) and the cells are narrow. */
const Matrix = styled(Table)`
  th,
  td {
    padding: 8px 6px;
    white-space: normal;
  }
  td {
    text-align: center;
  }
  th[scope='row'] code {
    display: block;
    margin: 2px 0 0;
  }
`;

/** The grid on a desk; a phone reads the same facts as a list (five columns do not fit 390 px without scrolling). */
const DeskOnly = styled.div`
  ${NARROW_SCREEN} {
    display: none;
  }
`;

const PhoneList = styled.dl`
  margin: 0;
  ${WIDE_SCREEN} {
    display: none;
  }
  > div {
    padding: 10px 0;
    border-top: 1px solid ${theme.colors.border};
  }
  dt {
    font-weight: 600;
  }
  dd {
    margin: 4px 0 0;
    color: ${theme.colors.muted};
  }
`;

const Mark = styled.span<{ $granted: boolean }>`
  font-weight: 700;
  color: ${({ $granted }) => ($granted ? theme.colors.success : theme.colors.muted)};
`;

/** The main permissions against the four roles, as each role grants them by default. */
export function PermissionMatrix() {
  const shown = PERMISSIONS.slice(0, PERMISSION_MATRIX_SIZE);
  return (
    <Card>
      <SectionTitle>Permission Matrix</SectionTitle>
      <Muted style={{ marginBottom: 12 }}>Default permissions of each role; a user&apos;s own permissions can differ.</Muted>
      <DeskOnly>
        <ScrollArea role="region" aria-label="Permission matrix" tabIndex={0}>
          <Matrix $minWidth={0}>
            <thead>
              <tr>
                <th scope="col">Permission</th>
                {ROLES.map((role) => (
                  <th key={role} scope="col">
                    {ROLE_LABELS[role]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((permission) => (
                <tr key={permission}>
                  <th scope="row">
                    <PermissionName permission={permission} />
                  </th>
                  {ROLES.map((role) => {
                    const granted = ROLE_DEFAULT_PERMISSIONS[role].includes(permission);
                    return (
                      <td key={role}>
                        <Mark role="img" aria-label={granted ? 'granted' : 'not granted'} $granted={granted}>
                          {granted ? '✓' : '—'}
                        </Mark>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </Matrix>
        </ScrollArea>
      </DeskOnly>
      <PhoneList aria-label="Permission matrix">
        {shown.map((permission) => {
          const roles = ROLES.filter((role) => ROLE_DEFAULT_PERMISSIONS[role].includes(permission));
          return (
            <div key={permission}>
              <dt>
                <PermissionName permission={permission} />
              </dt>
              <dd>{roles.length ? roles.map((role) => ROLE_LABELS[role]).join(', ') : 'No role by default'}</dd>
            </div>
          );
        })}
      </PhoneList>
    </Card>
  );
}
