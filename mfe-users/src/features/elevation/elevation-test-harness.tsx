import { act, render } from '@testing-library/react';
import { useState } from 'react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import { MemoryRouter, Route, Routes, useLocation } from '@cbh/router';
import { authUser } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { PrivilegeElevationPage } from './PrivilegeElevationPage';

/** The account the API lets elevate (canElevate), under an address the page cannot know in advance. */
export const owner = authUser({ email: 'owner@acme.test', role: 'admin', permissions: ['dashboard_view'], canElevate: true });

export const ELEVATE = 'POST /api/auth/elevate-privileges';
export const GET_OTP = 'GET /api/auth/get-otp';
export const ELEVATED = { success: true, message: 'You now have super admin access.' };

function Location() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** The page can be taken away while the router stays, to see what it leaves running behind it. */
function RemovablePage() {
  const [shown, setShown] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setShown(false)}>
        Remove page
      </button>
      {shown ? <PrivilegeElevationPage /> : null}
    </>
  );
}

export function renderPage() {
  return render(
    <Provider store={createAppStore()}>
      <MemoryRouter initialEntries={['/elevate']}>
        <Routes>
          <Route path="/elevate" element={<RemovablePage />} />
          <Route path="/" element={<h1>Home</h1>} />
        </Routes>
        <Location />
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}

/**
 * For tests on fake timers: lets the fake API answer and React commit (microtasks only), then runs one
 * animation frame, which is when the store tells its subscribers about query results.
 */
export const settle = async () => {
  await act(async () => {
    for (let i = 0; i < 50; i++) await Promise.resolve();
  });
  await tick(FRAME_MS);
};
export const FRAME_MS = 16;

export const tick = (ms: number) =>
  act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });

/** A route answer that waits until the test releases it, to look at the page while a call is in flight. */
export function deferred() {
  let release: (response: Response) => void = () => undefined;
  const promise = new Promise<Response>((resolve) => (release = resolve));
  return { route: () => promise, release: (body: unknown, status = 200) => release(Response.json(body, { status })) };
}
