import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useLocation } from '@cbh/router';
import styled from 'styled-components';
import { theme } from '@cbh/ui';

/**
 * Between the phone's menu and a wide desk the bar keeps one row by saying less: the Live word goes (its dot and title
 * stay), and the name and role move under More, as they do into the phone's menu.
 */
export const SMALL_DESK = '@media (max-width: 1199px)';

const Wrap = styled.div`
  position: relative;
`;

/* the same type as the links beside it; the page shown under it colours and underlines it, never a bolder weight */
const Toggle = styled.button`
  display: inline-flex;
  align-items: center;
  gap: 4px;
  min-height: 24px;
  padding: 0;
  border: none;
  background: transparent;
  font: inherit;
  font-size: 14px;
  color: ${theme.colors.muted};
  cursor: pointer;
  white-space: nowrap;
  &.active {
    color: ${theme.colors.primary};
    text-decoration: underline;
    text-decoration-thickness: 2px;
    text-underline-offset: 6px;
  }
  &:focus-visible {
    outline: 2px solid ${theme.colors.primary};
    outline-offset: 2px;
  }
`;

const Panel = styled.div`
  position: absolute;
  top: calc(100% + 10px);
  left: -12px;
  z-index: 50;
  display: grid;
  min-width: 220px;
  padding: 6px;
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  background: ${theme.colors.surface};
  box-shadow: 0 8px 24px rgb(15 23 42 / 12%);
  &[hidden] {
    display: none;
  }
`;

/** The links under More: rows with room for a pointer, the settings under their heading. */
export const MoreLinks = styled.div`
  display: grid;
  a {
    display: flex;
    align-items: center;
    min-height: 32px;
    padding: 0 10px;
    border-radius: 6px;
    font-size: 14px;
    text-decoration: none;
    white-space: nowrap;
  }
  a:hover {
    background: ${theme.colors.background};
  }
  a.active {
    background: ${theme.colors.current};
    color: ${theme.colors.primary};
  }
`;

export const SettingsGroup = styled.div`
  display: grid;
`;

export const GroupHeading = styled.div`
  margin-top: 6px;
  padding: 8px 10px 2px;
  border-top: 1px solid ${theme.colors.border};
  font-size: 12px;
  font-weight: 600;
  text-transform: uppercase;
  letter-spacing: 0.04em;
  color: ${theme.colors.muted};
`;

/** The name and role at the top of More, on a small desk only. */
export const MoreWho = styled.div`
  display: none;
  ${SMALL_DESK} {
    display: grid;
    justify-items: start;
    gap: 4px;
    margin-bottom: 6px;
    padding: 4px 10px 10px;
    border-bottom: 1px solid ${theme.colors.border};
  }
`;

/**
 * The top bar's More: a button that shows or hides a list of links under it (a disclosure, not an application menu,
 * so Tab and the links behave as links do). Escape, a click or a tap outside, leaving it with Tab, or following a link
 * closes it. `active` when the page shown is one of its links: the button is then highlighted like a link.
 */
export function MoreMenu({ label, active, children }: { label: string; active: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();

  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return undefined;
    const outside = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  return (
    <Wrap ref={root}>
      <Toggle
        ref={button}
        type="button"
        className={active ? 'active' : undefined}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((shown) => !shown)}
      >
        {label}
        <span aria-hidden>▾</span>
      </Toggle>
      <Panel
        id={id}
        hidden={!open}
        onClick={(event) => {
          // following a link to the page already shown closes the list too
          if ((event.target as Element).closest('a')) setOpen(false);
        }}
      >
        {open ? children : null}
      </Panel>
    </Wrap>
  );
}
