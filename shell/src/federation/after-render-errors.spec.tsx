/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { loadRemote, registerPlugins } from '@module-federation/enhanced/runtime';
import type { RemoteDescriptor } from '@cbh/contracts';
import { reportLoad } from './load-reports';
import { loadRemoteRoutes, registerManifest, resetRemote } from './remotes';
import { RemoteView } from './RemoteView';

jest.mock('./load-reports', () => ({ reportLoad: jest.fn() }));
jest.mock('@module-federation/enhanced/runtime', () => ({
  getInstance: jest.fn(),
  loadRemote: jest.fn(),
  registerPlugins: jest.fn(),
  registerRemotes: jest.fn(),
}));

/** A remote's screen that renders, then throws when its button is pressed: its own error after render. */
function BreaksOnPress() {
  const [broken, setBroken] = useState(false);
  if (broken) throw new Error('boom after render');
  return <button onClick={() => setBroken(true)}>Break</button>;
}

let remote: RemoteDescriptor;
let testNumber = 0;
const reports = () => jest.mocked(reportLoad).mock.calls.map(([load]) => load);
const afterRender = () => reports().filter((load) => load.afterRender);

beforeEach(() => {
  jest.clearAllMocks();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  // a version of its own per test: the shell remembers the build it loaded of each remote for the page's life
  testNumber++;
  remote = { name: `mfe_dashboard_${testNumber}`, entry: `/releases/mfe_dashboard/${testNumber}/mf-manifest.json`, routes: ['/dashboard'] };
  registerManifest({ remotes: [remote] });
  jest.mocked(registerPlugins).mockImplementation(() => undefined);
});

it('reports an error the remote throws after it rendered, once, against the build it was loaded from', async () => {
  jest.mocked(loadRemote).mockResolvedValue({ default: BreaksOnPress });
  render(<RemoteView remote={remote} load={loadRemoteRoutes} reset={resetRemote} />);
  fireEvent.click(await screen.findByRole('button', { name: 'Break' }));
  expect(await screen.findByTestId('remote-fallback')).toBeTruthy();
  expect(reports()).toEqual([
    { remote: remote.name, entry: remote.entry, ok: true, loadMs: expect.any(Number) },
    { remote: remote.name, entry: remote.entry, ok: false, afterRender: true, reason: 'Error: boom after render' },
  ]);

  // Retry loads the same build again, and it breaks again: one report of it per page
  fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
  fireEvent.click(await screen.findByRole('button', { name: 'Break' }));
  await screen.findByTestId('remote-fallback');
  expect(afterRender()).toHaveLength(1);
});

it('reports a build that fails to load as a failed load, not as an error after render', async () => {
  const unavailable = new Error('chunk missing');
  jest.mocked(loadRemote).mockImplementation(async () => {
    // its chunk throws as it runs: the window hears it, from the remote's folder, before the load has failed
    const filename = `http://localhost/releases/mfe_dashboard/${testNumber}/__federation_expose_Routes.js`;
    window.dispatchEvent(new ErrorEvent('error', { error: unavailable, filename }));
    return {
      default: () => {
        throw unavailable;
      },
      unavailable,
    };
  });
  render(<RemoteView remote={remote} load={loadRemoteRoutes} reset={resetRemote} />);
  await screen.findByTestId('remote-fallback');
  expect(reports()).toEqual([{ remote: remote.name, entry: remote.entry, ok: false, reason: 'chunk missing' }]);
});

it("reports errors thrown from the remote's files outside React — timers, handlers, promises — and no one else's", async () => {
  jest.mocked(loadRemote).mockResolvedValue({ default: () => <p>Loaded</p> });
  render(<RemoteView remote={remote} load={loadRemoteRoutes} reset={resetRemote} />);
  await screen.findByText('Loaded');

  // the shell's own script, and another address entirely: not the remote's
  window.dispatchEvent(new ErrorEvent('error', { error: new Error('shell'), filename: 'http://localhost/assets/main.3f2a.js' }));
  window.dispatchEvent(new ErrorEvent('error', { error: new Error('elsewhere'), filename: 'http://localhost/releases/mfe_other/1/x.js' }));
  expect(afterRender()).toEqual([]);

  const rejection = new TypeError('undefined is not a function');
  rejection.stack = `TypeError: undefined is not a function\n    at load (http://localhost/releases/mfe_dashboard/${testNumber}/__federation_expose_Routes.1a2b.js:1:200)`;
  const event = new Event('unhandledrejection') as PromiseRejectionEvent;
  Object.assign(event, { reason: rejection });
  window.dispatchEvent(event);
  expect(afterRender()).toEqual([
    { remote: remote.name, entry: remote.entry, ok: false, afterRender: true, reason: 'TypeError: undefined is not a function' },
  ]);
});
