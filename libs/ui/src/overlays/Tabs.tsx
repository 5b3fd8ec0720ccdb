import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import styled from 'styled-components';
import { theme } from '../theme';

const List = styled(RadixTabs.List)`
  display: flex;
  flex-wrap: wrap;
  gap: 4px;
  padding: 4px;
  margin-bottom: 16px;
  border-radius: ${theme.radius};
  background: ${theme.colors.border};
  width: fit-content;
  max-width: 100%;
`;
const Trigger = styled(RadixTabs.Trigger)`
  padding: 6px 14px;
  border: 0;
  border-radius: 6px;
  background: transparent;
  color: ${theme.colors.muted};
  font: inherit;
  font-size: 14px;
  font-weight: 500;
  cursor: pointer;
  &[data-state='active'] {
    background: ${theme.colors.surface};
    color: ${theme.colors.text};
    box-shadow: 0 1px 2px rgba(15, 23, 42, 0.12);
  }
  &:focus-visible {
    outline: 2px solid ${theme.colors.primary};
  }
`;

export interface TabItem {
  value: string;
  label: string;
  content: ReactNode;
}

/** Tabs with arrow-key navigation between them; only the active panel is rendered. */
export function Tabs({ tabs, defaultValue, label }: { tabs: TabItem[]; defaultValue?: string; label: string }) {
  return (
    <RadixTabs.Root defaultValue={defaultValue ?? tabs[0]?.value}>
      <List aria-label={label}>
        {tabs.map((tab) => (
          <Trigger key={tab.value} value={tab.value}>
            {tab.label}
          </Trigger>
        ))}
      </List>
      {tabs.map((tab) => (
        <RadixTabs.Content key={tab.value} value={tab.value}>
          {tab.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
