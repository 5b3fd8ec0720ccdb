import { lazy } from 'react';

// fetched with the first one opened, with the overlays entry of @cbh/ui they draw on, not with the tab
export const ScheduleDialog = lazy(() => import('./ScheduleDialog').then((module) => ({ default: module.ScheduleDialog })));
export const ConfirmDelete = lazy(() => import('../../shared/ConfirmDelete').then((module) => ({ default: module.ConfirmDelete })));
