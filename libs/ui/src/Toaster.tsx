import { useEffect } from 'react';
import { onDemand } from './on-demand';
import { useToasts } from './toast-store';

// The Radix toast region is fetched with the first toast: most visits never show one, and the first paint does
// not need it. Toasts raised before it arrives wait in the store and show when it does; as one toast shows at a time
// (TOAST.limit), a toast replaced by a newer one before then is never drawn.
const toastRegion = onDemand(() => import(/* webpackChunkName: "toast-region" */ './ToastRegion'), 'the toast region');

/** The one notification region of the site; remotes call toast() from this library. The host passes `onNavigate` to route actions' links. */
export function Toaster({ onNavigate }: { onNavigate?: (href: string) => void }) {
  const hasToasts = useToasts().length > 0;
  const region = toastRegion.use();
  useEffect(() => {
    if (hasToasts) void toastRegion.load();
  }, [hasToasts]);
  return region ? <region.ToastRegion onNavigate={onNavigate} /> : null;
}
