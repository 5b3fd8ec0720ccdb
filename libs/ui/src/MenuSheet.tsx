import { useRef, useState, type ReactNode } from 'react';
import { IconButton } from './Button';
import { onDemand } from './on-demand';

// Radix Dialog is fetched when the menu is first asked for (the press, before its click), not with the page: a wide
// screen never shows the menu's button, and a phone's first paint does not need the sheet. Not through the overlays
// entry the remotes share: the shell would then provide it, the remotes' dialogs would share Radix's dismissable layers
// with the shell's toasts, and Escape stopped closing the domain panel.
const menuPanel = onDemand(() => import(/* webpackChunkName: "menu-sheet" */ './MenuSheetPanel'), 'the menu');

/** Three bars, the sign of a menu. */
function MenuIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden focusable="false">
      <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export interface MenuSheetProps {
  /** Names the button and the menu. */
  title: string;
  /** The menu's content; following a link in it closes the menu. */
  children: ReactNode;
  /** Styles the button (where it shows). */
  className?: string;
}

/**
 * A menu button that opens a modal sheet from the right edge: focus moves into it and stays there; Escape, the close
 * button, a followed link or a tap beside it closes it, and focus returns to the button.
 */
export function MenuSheet({ title, children, className }: MenuSheetProps) {
  const panel = menuPanel.use();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <IconButton
        ref={button}
        type="button"
        className={className}
        aria-label={title}
        aria-haspopup="dialog"
        aria-expanded={open}
        onPointerDown={() => void menuPanel.load()}
        onClick={() => void menuPanel.load().then((loaded) => setOpen(loaded !== undefined))}
      >
        <MenuIcon />
      </IconButton>
      {panel ? (
        <panel.MenuSheetPanel open={open} onOpenChange={setOpen} title={title} returnFocusTo={button}>
          {children}
        </panel.MenuSheetPanel>
      ) : null}
    </>
  );
}
