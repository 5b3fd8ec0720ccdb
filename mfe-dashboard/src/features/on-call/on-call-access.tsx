import type { ComponentProps } from 'react';
import { ViewerPage } from '../shared/viewer-page';

export const NO_ACCESS_TEXT = 'You need the circuit_breaker_view permission to see alert groups.';
const TEXTS = { signIn: 'Sign in to see alert groups and who is on call.', noAccess: NO_ACCESS_TEXT };

/** A page of the on-call screens: for holders of circuit_breaker_view, as the API asks to read alert groups. */
export function OnCallOnly(props: Omit<ComponentProps<typeof ViewerPage>, 'texts'>) {
  return <ViewerPage {...props} texts={TEXTS} />;
}
