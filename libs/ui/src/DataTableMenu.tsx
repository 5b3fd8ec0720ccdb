/** A row's actions in a small menu, for tables whose rows hold more actions than fit beside their data. */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import styled from 'styled-components';
import { Button } from './Button';
import { theme } from './theme';

/** One thing a row's menu (or its inline button) does; disabled with the reason where the reader may not do it. */
export interface RowAction {
  label: string;
  onSelect: () => void;
  /** why the action is refused to the signed-in user; the action shows disabled with this line */
  disabledReason?: string | null;
  /** deletes or ends something: shown in the destructive colour */
  danger?: boolean;
}

const Panel = styled.div`
  position: fixed;
  z-index: 50;
  display: grid;
  min-width: 200px;
  max-width: min(320px, calc(100vw - 16px));
  padding: 6px;
  background: ${theme.colors.surface};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  box-shadow: 0 8px 24px rgba(15, 23, 42, 0.16);
`;

const Item = styled.button<{ $danger?: boolean }>`
  display: block;
  width: 100%;
  min-height: 40px;
  padding: 8px 12px;
  text-align: left;
  font: inherit;
  font-size: 14px;
  color: ${({ $danger }) => ($danger ? theme.colors.destructive : theme.colors.text)};
  background: none;
  border: 0;
  border-radius: 6px;
  cursor: pointer;
  &:hover:not(:disabled),
  &:focus-visible {
    background: ${theme.colors.current};
    outline: none;
  }
  &:disabled {
    color: ${theme.colors.muted};
    cursor: not-allowed;
  }
`;

const Reason = styled.span`
  display: block;
  padding: 0 12px 6px;
  font-size: 12px;
  color: ${theme.colors.muted};
`;

const Dots = () => (
  <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden focusable="false">
    <circle cx="3" cy="8" r="1.6" fill="currentColor" />
    <circle cx="8" cy="8" r="1.6" fill="currentColor" />
    <circle cx="13" cy="8" r="1.6" fill="currentColor" />
  </svg>
);

const Trigger = styled(Button)`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 6px;
  min-width: 40px;
  min-height: 40px;
  padding-inline: 10px;
  white-space: nowrap;
`;

/** Where the panel goes: under the button, its right edge on the button's, kept inside the window. */
function placeUnder(button: HTMLElement): { top: number; right: number } {
  const box = button.getBoundingClientRect();
  // right-aligned with the button, but never past the window's left edge (the panel is 200 px wide at least)
  const right = Math.max(8, Math.min(window.innerWidth - box.right, window.innerWidth - 208));
  const below = box.bottom + 4;
  // near the bottom of the window the panel opens upwards instead (an estimate of its height is enough)
  const top = below + 220 > window.innerHeight ? Math.max(8, box.top - 224) : below;
  return { top, right };
}

/**
 * A button (three dots and any `children`, named for the row by `label`) that opens a list of the row's actions under it. Escape, a tap
 * elsewhere, a resize or choosing an action closes it; focus goes to its first action when it opens and back to the
 * button when Escape closes it. A disabled action shows why under its name.
 */
export function RowActionsMenu({
  label,
  actions,
  children = 'Actions',
}: {
  label: string;
  actions: readonly RowAction[];
  children?: ReactNode;
}) {
  const [place, setPlace] = useState<{ top: number; right: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  const open = place !== null;

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
    const close = () => setPlace(null);
    // a scroll (the page's, or the browser bringing an action into view) moves the panel with its button
    const follow = () => setPlace((shown) => (shown && button.current ? placeUnder(button.current) : shown));
    const outside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) close();
    };
    document.addEventListener('pointerdown', outside);
    window.addEventListener('resize', close);
    window.addEventListener('scroll', follow, true);
    return () => {
      document.removeEventListener('pointerdown', outside);
      window.removeEventListener('resize', close);
      window.removeEventListener('scroll', follow, true);
    };
  }, [open]);

  const escape = (event: React.KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    setPlace(null);
    button.current?.focus();
  };

  return (
    <>
      <Trigger
        ref={button}
        type="button"
        $variant="outline"
        aria-label={label}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setPlace(open || !button.current ? null : placeUnder(button.current))}
      >
        {children}
        <Dots />
      </Trigger>
      {open
        ? createPortal(
            <Panel ref={panel} id={id} role="group" aria-label={label} style={place} onKeyDown={escape}>
              {actions.map((action, index) => (
                <div key={action.label}>
                  <Item
                    type="button"
                    $danger={action.danger}
                    disabled={Boolean(action.disabledReason)}
                    aria-describedby={action.disabledReason ? `${id}-${index}` : undefined}
                    onClick={() => {
                      setPlace(null);
                      action.onSelect();
                    }}
                  >
                    {action.label}
                  </Item>
                  {action.disabledReason ? <Reason id={`${id}-${index}`}>{action.disabledReason}</Reason> : null}
                </div>
              ))}
            </Panel>,
            document.body,
          )
        : null}
    </>
  );
}
