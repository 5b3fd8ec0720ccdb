import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { RemoteUnavailableError } from './remote-errors';

/**
 * Turns a remote that cannot be loaded (missing manifest, missing chunk, failing entry) into a module whose
 * component throws RemoteUnavailableError, so the shell's error boundary shows the fallback card in place; the module
 * also carries the error (`unavailable`), so the load is reported as the failure it is.
 */
export default function remoteFallbackPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'remote-fallback',
    errorLoadRemote({ id, error, lifecycle }) {
      if (lifecycle !== 'onLoad') return undefined;
      console.error(`[federation] ${id} could not be loaded`, error);
      const unavailable = new RemoteUnavailableError(id, error);
      return {
        default: function RemoteUnavailable() {
          throw unavailable;
        },
        unavailable,
      };
    },
  };
}
