import type { AdapterTransition, BreakerAdapter } from './adapter';
import { RollingWindow } from '../rolling-window';

/** What an adapter reports, as the agent hears it: its calls binned in a window, and its transitions in order. */
export function watchAdapter(adapter: BreakerAdapter) {
  const window = new RollingWindow([10, 25, 50, 1000], adapter.slowCallMs);
  const transitions: AdapterTransition[] = [];
  adapter.onCall((outcome, ms) => window.record(outcome, ms));
  adapter.onTransition((t) => transitions.push(t));
  return { window, transitions };
}

/** A call through the adapter that succeeds ('ok') or fails ('boom') after `takeTime`; a refusal or failure is returned. */
export function callThrough(
  adapter: { execute(fn: () => Promise<string>): Promise<string> },
  ok: boolean,
  takeTime: () => unknown = () => undefined,
): Promise<string | Error> {
  return adapter
    .execute(async () => {
      await takeTime();
      if (!ok) throw new Error('boom');
      return 'ok';
    })
    .catch((error: Error) => error);
}
