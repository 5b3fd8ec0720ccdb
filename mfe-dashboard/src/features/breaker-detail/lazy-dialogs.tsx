import { lazy, Suspense, useState, type ReactNode } from 'react';

// A breaker's page opens its dialogs on request only, so their code (the overlays entry of @cbh/ui on Radix) is
// fetched with the first one opened, not with the page: the page's first navigation costs less by that much.

/** ConfirmDialog of @cbh/ui/overlays, fetched when first rendered. */
export const ConfirmDialog = lazy(() => import('@cbh/ui/overlays').then((overlays) => ({ default: overlays.ConfirmDialog })));

/** The settings dialog, fetched when first opened. */
export const EditSettingsDialog = lazy(() => import('./EditSettingsDialog').then((dialog) => ({ default: dialog.EditSettingsDialog })));

/** An agent's breaker's library settings dialog, fetched when first opened. */
export const LibrarySettingsDialog = lazy(() =>
  import('./LibrarySettingsDialog').then((dialog) => ({ default: dialog.LibrarySettingsDialog })),
);

/** What a breaker depends on, fetched when first edited. */
export const DependenciesDialog = lazy(() => import('./DependenciesDialog').then((dialog) => ({ default: dialog.DependenciesDialog })));

/** Renders its dialog from the first time it opens on (it stays mounted, to close as Radix closes it); nothing before. */
export function OnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
