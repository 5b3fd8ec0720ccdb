import { lazy } from 'react';

// The page's dialogs, fetched with the first one opened, with the overlays entry of @cbh/ui they draw on.
export const ScrapeTargetDialog = lazy(() => import('./ScrapeTargetDialog').then((module) => ({ default: module.ScrapeTargetDialog })));
export const ConfirmDelete = lazy(() => import('../shared/ConfirmDelete').then((module) => ({ default: module.ConfirmDelete })));
