/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { AuthUser } from '@cbh/contracts';
import { MemoryRouter, Route, Routes } from '@cbh/router';
import { Toaster } from '@cbh/ui';
import { CreateBreakerPage } from './CreateBreakerPage';

const admin: AuthUser = { id: 'a', email: 'ada@example.com', role: 'admin', firstName: 'Ada', lastName: null, profileImageUrl: null, permissions: ['circuit_breaker_admin'], canElevate: false };
let posted: unknown[] = [];

function serve(user: AuthUser, createStatus = 201) {
  posted = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const request = input as Request;
    const path = new URL(request.url).pathname;
    if (path === '/api/auth/user') return Response.json(user);
    if (path === '/api/circuit-breakers' && request.method === 'POST') {
      const body = await request.json();
      posted.push(body);
      return createStatus === 201
        ? Response.json({ ...body, id: 9, state: 'CLOSED' }, { status: 201 })
        : Response.json({ statusCode: 400, error: 'Bad Request', message: 'name: is required' }, { status: 400 });
    }
    return Response.json({ statusCode: 404, error: 'Not Found', message: 'no' }, { status: 404 });
  }) as typeof fetch;
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
  serve(admin);
  renderPage();
  const submit = await screen.findByRole('button', { name: 'Create Circuit Breaker' });
  expect((submit as HTMLButtonElement).disabled).toBe(true);
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Orders' } });
  fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'adaptive' } });
  fireEvent.change(screen.getByLabelText(/^Timeout/), { target: { value: '40' } });
  expect(screen.getByTestId('adaptive-ranges').textContent).toBe('Threshold adapts within 3–8; open time within 20–40 s.');
  await act(async () => void fireEvent.click(submit));
  expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
  expect(posted).toEqual([{ name: 'Orders', type: 'adaptive', failureThreshold: 5, timeout: 40_000, recoveryTime: 60_000, successThreshold: 3 }]);
  expect(screen.getByText('Circuit Breaker Created')).toBeTruthy();
});

it('shows the API’s reason when it refuses', async () => {
  serve(admin, 400);
  renderPage();
  fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'X' } });
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Create Circuit Breaker' })));
  expect(await screen.findByText('name: is required')).toBeTruthy();
});

it('tells an account without circuit_breaker_admin that it cannot create breakers', async () => {
  serve({ ...admin, role: 'viewer', permissions: ['circuit_breaker_view'] });
  renderPage();
  expect(await screen.findByText('You need the circuit_breaker_admin permission to create circuit breakers.')).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Create Circuit Breaker' })).toBeNull();
});
