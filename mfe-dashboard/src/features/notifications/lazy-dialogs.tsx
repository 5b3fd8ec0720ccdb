import { lazy } from 'react';

/*
 * The page's dialogs, fetched with the first one opened: with them, and the overlays entry they draw on (21 KB
 * gzip), the page would pass its 50 KB budget on first navigation.
 */
export const ChannelDialog = lazy(() => import('./ChannelDialog').then((module) => ({ default: module.ChannelDialog })));
export const RuleDialog = lazy(() => import('./RuleDialog').then((module) => ({ default: module.RuleDialog })));
export const WindowDialog = lazy(() => import('./WindowDialog').then((module) => ({ default: module.WindowDialog })));
