/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { AuthUser } from '@cbh/contracts';
import { MemoryRouter, Route, Routes } from '@cbh/router';
import { apiError, authUser, fakeApi } from '@cbh/test-support';
import { Toaster } from '@cbh/ui';
import { CreateBreakerPage } from './CreateBreakerPage';

const admin = authUser({ email: 'ada@example.com', role: 'admin', permissions: ['circuit_breaker_admin'] });

function fakeApiAs(user: AuthUser, createStatus = 201) {
  return fakeApi({
    'GET /api/auth/user': user,
    'POST /api/circuit-breakers':
      createStatus === 201
        ? (body: unknown) => Response.json({ ...(body as object), id: 9, state: 'CLOSED' }, { status: 201 })
        : apiError(400, 'name: is required'),
  });
}

function renderPage() {
  render(
    <Provider store={createAppStore()}>
      <MemoryRouter initialEntries={['/circuit-breakers/new']}>
        <Routes>
          <Route path="/circuit-breakers/new" element={<CreateBreakerPage />} />
          <Route path="/dashboard" element={<h1>Dashboard</h1>} />
        </Routes>
      </MemoryRouter>
      <Toaster />
    </Provider>,
  );
}

it('creates a breaker from the form, with the settings sent in milliseconds, then returns to the dashboard', async () => {
  const api = fakeApiAs(admin);
  renderPage();
  const submit = await screen.findByRole('button', { name: 'Create Circuit Breaker' });
  expect((submit as HTMLButtonElement).disabled).toBe(true);
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Orders' } });
  fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'adaptive' } });
  fireEvent.change(screen.getByLabelText(/^Timeout/), { target: { value: '40' } });
  expect(screen.getByTestId('adaptive-ranges').textContent).toBe('Threshold adapts within 3–8; open time within 20–40 s.');
  await act(async () => void fireEvent.click(submit));
  expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  expect(api.callsTo('POST', '/api/circuit-breakers').map((call) => call.body)).toEqual([
    { name: 'Orders', type: 'adaptive', failureThreshold: 5, timeout: 40_000, recoveryTime: 60_000, successThreshold: 3 },
  ]);
  expect(screen.getByText('Circuit Breaker Created')).toBeTruthy();
});

it('shows the API’s reason when it refuses', async () => {
  fakeApiAs(admin, 400);
  renderPage();
  fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'X' } });
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Create Circuit Breaker' })));
  expect(await screen.findByText('name: is required')).toBeTruthy();
});

it('tells an account without circuit_breaker_admin that it cannot create breakers', async () => {
  fakeApiAs({ ...admin, role: 'viewer', permissions: ['circuit_breaker_view'] });
  renderPage();
  expect(await screen.findByText('You need the circuit_breaker_admin permission to create circuit breakers.')).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Create Circuit Breaker' })).toBeNull();
});
