import * as RadixDialog from '@radix-ui/react-dialog';
import type { MouseEvent, ReactNode, RefObject } from 'react';
import styled from 'styled-components';
import { IconButton } from './Button';
import { overlayStyle } from './overlays/Dialog';
import { theme } from './theme';

const Overlay = styled(RadixDialog.Overlay)`
  ${overlayStyle}
`;

// a strip of the page stays in view beside the sheet: a tap there closes it, as it does on most phones' menus
const Panel = styled(RadixDialog.Content)`
  position: fixed;
  top: 0;
  right: 0;
  bottom: 0;
  z-index: 41;
  width: min(340px, calc(100vw - 48px));
  overflow-y: auto;
  overscroll-behavior: contain;
  display: flex;
  flex-direction: column;
  gap: 16px;
  padding: 12px 16px 24px;
  background: ${theme.colors.surface};
  box-shadow: -12px 0 40px rgba(15, 23, 42, 0.25);
  &:focus {
    outline: none;
  }
`;

const Header = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
`;

const Title = styled(RadixDialog.Title)`
  margin: 0;
  font-size: 18px;
`;

function CloseIcon() {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden focusable="false">
      <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** The sheet MenuSheet opens, once its code has arrived. */
export function MenuSheetPanel({
  open,
  onOpenChange,
  title,
  returnFocusTo,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  returnFocusTo: RefObject<HTMLButtonElement | null>;
  children: ReactNode;
}) {
  // a followed link has done what the menu was opened for
  const closeOnLink = (event: MouseEvent) => {
    if ((event.target as Element).closest('a[href]')) onOpenChange(false);
  };
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <Overlay />
        <Panel
          aria-describedby={undefined}
          onClick={closeOnLink}
          // the button that opened it is not a Radix trigger (it is drawn before this code arrives): focus goes back by hand
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
        >
          <Header>
            <Title>{title}</Title>
            <RadixDialog.Close asChild>
              <IconButton type="button" aria-label={`Close ${title.toLowerCase()}`}>
                <CloseIcon />
              </IconButton>
            </RadixDialog.Close>
          </Header>
          {children}
        </Panel>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
