import type { ComponentProps } from 'react';
import { ViewerPage } from '../shared/viewer-page';

export const NO_ACCESS_TEXT = 'You need the circuit_breaker_view permission to see SLOs.';
const TEXTS = { signIn: 'Sign in to see the service level objectives and their error budgets.', noAccess: NO_ACCESS_TEXT };

/** A page of the SLO screens: for holders of circuit_breaker_view, as the API asks to read SLOs. */
export function SlosOnly(props: Omit<ComponentProps<typeof ViewerPage>, 'texts'>) {
  return <ViewerPage {...props} texts={TEXTS} />;
}
