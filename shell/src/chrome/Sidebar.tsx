import { useState } from 'react';
import { NavLink } from '@cbh/router';
import styled from 'styled-components';
import { servicePath } from '@cbh/contracts';
import { Dot, NARROW_SCREEN, theme, Tooltip } from '@cbh/ui';
import { SERVICE_COMPONENT_GROUPS, type ComponentStatus } from './service-components';

export const STATUS_COLORS: Record<ComponentStatus, string> = {
  active: theme.colors.success,
  monitoring: theme.colors.warning,
  inactive: theme.colors.inactive,
};

const Aside = styled.aside<{ $shrunk: boolean }>`
  width: ${({ $shrunk }) => ($shrunk ? '56px' : '240px')};
  flex: none;
  border-right: 1px solid ${theme.colors.border};
  background: ${theme.colors.surface};
  overflow-y: auto;
  transition: width 0.15s ease;
  /* a phone's width is the page's: the top bar's menu lists these links, with their labels and statuses */
  ${NARROW_SCREEN} {
    display: none;
  }
`;

const Heading = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  padding: 12px;
  font-weight: 700;
`;

const IconButton = styled.button`
  border: 1px solid ${theme.colors.border};
  border-radius: 6px;
  background: transparent;
  padding: 2px 8px;
  cursor: pointer;
  font: inherit;
`;

const GroupToggle = styled.button`
  width: 100%;
  display: flex;
  justify-content: space-between;
  padding: 8px 12px;
  border: none;
  background: transparent;
  font: inherit;
  font-size: 12px;
  font-weight: 600;
  text-transform: uppercase;
  letter-spacing: 0.04em;
  color: ${theme.colors.muted};
  cursor: pointer;
`;

const List = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0 0 8px;
`;

const Item = styled(NavLink)`
  display: flex;
  align-items: center;
  gap: 10px;
  padding: 6px 16px;
  font-size: 14px;
  text-decoration: none;
  &.active {
    background: ${theme.colors.current};
    color: ${theme.colors.primary};
  }
  &:hover {
    background: ${theme.colors.background};
  }
`;

/** The 'Service Logic' sidebar: five collapsible groups; the whole bar shrinks to its status dots. */
export function Sidebar() {
  const [shrunk, setShrunk] = useState(false);
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});

  return (
    <Aside $shrunk={shrunk} aria-label="Service Logic" data-shrunk={shrunk}>
      <Heading>
        {shrunk ? null : <span>Service Logic</span>}
        <IconButton aria-label={shrunk ? 'Expand sidebar' : 'Shrink sidebar'} aria-expanded={!shrunk} onClick={() => setShrunk((s) => !s)}>
          {shrunk ? '»' : '«'}
        </IconButton>
      </Heading>
      <nav>
        {SERVICE_COMPONENT_GROUPS.map(({ category, components }) => {
          const open = shrunk || !collapsed[category];
          return (
            <div key={category} role="group" aria-label={category}>
              {shrunk ? null : (
                <GroupToggle aria-expanded={open} onClick={() => setCollapsed((c) => ({ ...c, [category]: !c[category] }))}>
                  {category}
                  <span aria-hidden>{open ? '▾' : '▸'}</span>
                </GroupToggle>
              )}
              {open ? (
                <List>
                  {components.map(({ slug, label, status }) => (
                    <li key={slug}>
                      <Tooltip content={`${label}: ${status}`} side="right">
                        <Item to={servicePath(slug)} aria-label={label} data-status={status}>
                          <Dot $color={STATUS_COLORS[status]} aria-hidden />
                          {shrunk ? null : label}
                        </Item>
                      </Tooltip>
                    </li>
                  ))}
                </List>
              ) : null}
            </div>
          );
        })}
      </nav>
    </Aside>
  );
}

const MenuHeading = styled.h3`
  margin: 0;
  padding: 12px 8px 0;
  border-top: 1px solid ${theme.colors.border};
  font-size: 15px;
`;

const MenuGroupName = styled.div`
  padding: 8px 8px 2px;
  font-size: 12px;
  font-weight: 600;
  text-transform: uppercase;
  letter-spacing: 0.04em;
  color: ${theme.colors.muted};
`;

const MenuItem = styled(NavLink)`
  display: flex;
  align-items: center;
  gap: 10px;
  min-height: 36px;
  padding: 0 8px;
  border-radius: 6px;
  font-size: 14px;
  text-decoration: none;
  &.active {
    background: ${theme.colors.current};
    color: ${theme.colors.primary};
  }
`;

const StatusWord = styled.span`
  margin-left: auto;
  font-size: 12px;
  color: ${theme.colors.muted};
`;

/** The sidebar's links in the phone's menu, where the sidebar gives way: each with its label and, in words, its status. */
export function ServiceMenuLinks() {
  return (
    <nav aria-labelledby="service-menu-heading">
      <MenuHeading id="service-menu-heading">Service Logic</MenuHeading>
      {SERVICE_COMPONENT_GROUPS.map(({ category, components }) => (
        <div key={category} role="group" aria-label={category}>
          <MenuGroupName aria-hidden>{category}</MenuGroupName>
          <List>
            {components.map(({ slug, label, status }) => (
              <li key={slug}>
                <MenuItem to={servicePath(slug)} data-status={status}>
                  <Dot $color={STATUS_COLORS[status]} aria-hidden />
                  {label}
                  <StatusWord>{status}</StatusWord>
                </MenuItem>
              </li>
            ))}
          </List>
        </div>
      ))}
    </nav>
  );
}
