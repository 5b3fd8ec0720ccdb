/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, screen } from '@testing-library/react';
import { apiError, fakeApi } from '@cbh/test-support';
import { deferred, ELEVATE, GET_OTP, owner, renderPage, settle, tick } from './elevation-test-harness';

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const otpReads = (api: ReturnType<typeof fakeApi>) => api.callsTo('GET', '/api/auth/get-otp').length;

async function openOtp() {
  await settle();
  fireEvent.click(button('Use Time-based OTP'));
  await settle();
}

beforeEach(() => jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick'] }));
afterEach(() => jest.useRealTimers());

it('shows the current code, its seconds left and the 30-second period', async () => {
  fakeApi({ 'GET /api/auth/user': owner, [GET_OTP]: { otp: '482913', timeLeft: 17 } });
  renderPage();
  await openOtp();
  expect(screen.getByLabelText('Current code').textContent).toBe('482913');
  expect(screen.getByText('Refreshes in 17 s')).toBeTruthy();
  expect(screen.getByText('The code refreshes every 30 seconds.')).toBeTruthy();
});

it('reads the code every 5 s only while the OTP step is shown', async () => {
  let timeLeft = 30;
  const api = fakeApi({ 'GET /api/auth/user': owner, [GET_OTP]: () => ({ otp: '111111', timeLeft: (timeLeft -= 5) }) });
  renderPage();
  await settle();
  await tick(20_000);
  expect(otpReads(api)).toBe(0);

  await openOtp();
  expect(otpReads(api)).toBe(1);
  expect(screen.getByText('Refreshes in 25 s')).toBeTruthy();
  await tick(5000);
  expect(otpReads(api)).toBe(2);
  expect(screen.getByText('Refreshes in 20 s')).toBeTruthy();
  await tick(5000);
  expect(otpReads(api)).toBe(3);

  fireEvent.click(button('Back to Methods'));
  await tick(20_000);
  expect(otpReads(api)).toBe(3);
});

it('reads the code again with Refresh code', async () => {
  const api = fakeApi({ 'GET /api/auth/user': owner, [GET_OTP]: { otp: '111111', timeLeft: 12 } });
  renderPage();
  await openOtp();
  expect(otpReads(api)).toBe(1);
  fireEvent.click(button('Refresh code'));
  await settle();
  expect(otpReads(api)).toBe(2);
});

it('says the server does not display codes when get-otp answers 403, and stops asking', async () => {
  const api = fakeApi({ 'GET /api/auth/user': owner, [GET_OTP]: apiError(403, 'Showing the one-time code is turned off on this server') });
  renderPage();
  await openOtp();
  expect(
    screen.getByText('This server does not display the current code, so this method cannot be completed here; choose another method.'),
  ).toBeTruthy();
  expect(screen.queryByLabelText('Current code')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Refresh code' })).toBeNull();
  expect(screen.getByLabelText('One-time code')).toBeTruthy();
  await tick(20_000);
  expect(otpReads(api)).toBe(1);
});

it('keeps Verify OTP disabled while the code is empty, takes digits only, and sends the code', async () => {
  const answer = deferred();
  const api = fakeApi({ 'GET /api/auth/user': owner, [GET_OTP]: { otp: '111111', timeLeft: 12 }, [ELEVATE]: answer.route });
  renderPage();
  await openOtp();
  expect(button('Verify OTP').disabled).toBe(true);
  const input = screen.getByLabelText('One-time code') as HTMLInputElement;
  fireEvent.change(input, { target: { value: '12a3 4567' } });
  expect(input.value).toBe('123456');
  expect(button('Verify OTP').disabled).toBe(false);
  fireEvent.click(button('Verify OTP'));
  await settle();
  expect(button('Verifying...').disabled).toBe(true);
  expect(api.callsTo('POST', '/api/auth/elevate-privileges').map((call) => call.body)).toEqual([
    { method: 'time_based_otp', code: '123456' },
  ]);
  answer.release({ message: 'Invalid or expired code' }, 403);
  await settle();
  expect(screen.getByText('Elevation Failed')).toBeTruthy();
  expect(screen.getByText('Invalid or expired code')).toBeTruthy();
  expect(button('Verify OTP').disabled).toBe(false);
});

it('elevates with a right code and goes to / after 1.5 s', async () => {
  fakeApi({ 'GET /api/auth/user': owner, [GET_OTP]: { otp: '111111', timeLeft: 12 }, [ELEVATE]: { success: true, message: 'ok' } });
  renderPage();
  await openOtp();
  fireEvent.change(screen.getByLabelText('One-time code'), { target: { value: '111111' } });
  fireEvent.click(button('Verify OTP'));
  await settle();
  expect(screen.getByText('Privilege Elevation Successful')).toBeTruthy();
  await tick(1500);
  expect(screen.getByTestId('location').textContent).toBe('/');
});
