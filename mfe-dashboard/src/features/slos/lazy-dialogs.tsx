import { lazy } from 'react';

// The SLO dialog and the delete confirmation, fetched with the first one opened, with the overlays entry of @cbh/ui they
// draw on: most visits read the SLOs and change none.
export const SloDialog = lazy(() => import('./SloDialog').then((module) => ({ default: module.SloDialog })));
export const ConfirmDelete = lazy(() => import('../shared/ConfirmDelete').then((module) => ({ default: module.ConfirmDelete })));
