import { lazy } from 'react';

// The page's add and edit dialog, fetched when first opened, with the overlays entry of @cbh/ui it draws on.
export const ScrapeTargetDialog = lazy(() => import('./ScrapeTargetDialog').then((module) => ({ default: module.ScrapeTargetDialog })));
