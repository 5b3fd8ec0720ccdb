import { lazy } from 'react';

// fetched with the first one opened, with the overlays entry of @cbh/ui it draws on, not with the tab
export const PolicyDialog = lazy(() => import('./PolicyDialog').then((module) => ({ default: module.PolicyDialog })));
