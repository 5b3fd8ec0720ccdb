import * as RadixSwitch from '@radix-ui/react-switch';
import styled from 'styled-components';
import { controlStates, theme } from '../theme';

const Root = styled(RadixSwitch.Root)`
  position: relative;
  /* 24 px tall: a finger's target (WCAG 2.5.8) */
  width: 44px;
  height: 24px;
  flex: none;
  padding: 0;
  border: 0;
  border-radius: 999px;
  background: ${theme.colors.inactive};
  cursor: pointer;
  &[data-state='checked'] {
    background: ${theme.colors.primary};
  }
  ${controlStates}
`;
const Thumb = styled(RadixSwitch.Thumb)`
  display: block;
  width: 20px;
  height: 20px;
  border-radius: 999px;
  background: ${theme.colors.surface};
  transform: translateX(2px);
  transition: transform 120ms;
  &[data-state='checked'] {
    transform: translateX(22px);
  }
`;

export interface SwitchProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** The switch's accessible name. */
  label: string;
  disabled?: boolean;
  id?: string;
}

/** An on/off switch (role switch, Space toggles it). */
export function Switch({ checked, onCheckedChange, label, disabled, id }: SwitchProps) {
  return (
    <Root id={id} checked={checked} onCheckedChange={onCheckedChange} disabled={disabled} aria-label={label}>
      <Thumb />
    </Root>
  );
}
