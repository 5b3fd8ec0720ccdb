/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError, authUser, fakeApi } from '@cbh/test-support';
import { deferred, ELEVATE, ELEVATED, FRAME_MS, owner, renderPage, settle, tick } from './elevation-test-harness';
import { reloadPage } from './reload-page';

jest.mock('./reload-page', () => ({ reloadPage: jest.fn() }));

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const elevateBodies = (api: ReturnType<typeof fakeApi>) => api.callsTo('POST', '/api/auth/elevate-privileges').map((call) => call.body);

async function openMasterKey() {
  fireEvent.click(await screen.findByRole('button', { name: 'Use Master Security Key' }));
  return screen.getByLabelText('Master key');
}

/** On fake timers: renders the page, sends this master key and lets the answer arrive. */
async function sendMasterKey(key: string) {
  renderPage();
  await settle();
  fireEvent.click(button('Use Master Security Key'));
  fireEvent.change(screen.getByLabelText('Master key'), { target: { value: key } });
  fireEvent.click(button('Verify Access'));
  await settle();
}

afterEach(() => {
  jest.useRealTimers();
  jest.mocked(reloadPage).mockClear();
});

describe('who may elevate', () => {
  it('names the authorized account from the auth user, with what success grants', async () => {
    fakeApi({ 'GET /api/auth/user': owner });
    renderPage();
    expect((await screen.findByRole('note')).textContent).toBe(
      'Elevation is authorized for one admin account only: owner@acme.test. Success grants super admin access.',
    );
    expect(screen.getAllByTestId('method-card')).toHaveLength(3);
  });

  it('tells another account it is not the one allowed, and offers no methods', async () => {
    fakeApi({ 'GET /api/auth/user': authUser({ email: 'eve@acme.test', role: 'admin', permissions: [] }) });
    renderPage();
    expect((await screen.findByRole('note')).textContent).toBe(
      'Elevation is authorized for one admin account only, and eve@acme.test is not that account.',
    );
    expect(screen.queryAllByTestId('method-card')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: /^Use / })).toBeNull();
  });

  it('tells a super admin there is nothing to elevate, and offers no methods', async () => {
    fakeApi({ 'GET /api/auth/user': authUser({ email: 'root@acme.test', role: 'super_admin', permissions: ['*'] }) });
    renderPage();
    expect((await screen.findByRole('note')).textContent).toBe(
      'root@acme.test already has super admin access; there is nothing to elevate.',
    );
    expect(screen.queryAllByTestId('method-card')).toHaveLength(0);
  });

  it('asks a signed-out visitor to sign in', async () => {
    fakeApi({ 'GET /api/auth/user': apiError(401, 'Unauthorized') });
    renderPage();
    expect((await screen.findByRole('link', { name: 'Login' })).getAttribute('href')).toBe('/api/login');
    expect(screen.getByText('Sign in to elevate your privileges.')).toBeTruthy();
    expect(screen.queryAllByTestId('method-card')).toHaveLength(0);
  });

  it('says so when the account cannot be read', async () => {
    fakeApi({ 'GET /api/auth/user': () => new Response('boom', { status: 500 }) });
    renderPage();
    expect(await screen.findByText('Your account could not be loaded. Reload the page to try again.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
  });
});

describe('step 1: choosing a method', () => {
  it('offers the three methods, all available, with their security levels', async () => {
    const api = fakeApi({ 'GET /api/auth/user': owner });
    renderPage();
    const cards = await screen.findAllByTestId('method-card');
    const summary = cards.map((card) => {
      const inCard = within(card);
      return [
        inCard.getByRole('heading').textContent,
        inCard.getByText(/security$/).textContent,
        (inCard.getByRole('button') as HTMLButtonElement).disabled,
      ];
    });
    expect(summary).toEqual([
      ['Email Verification', 'High security', false],
      ['Master Security Key', 'High security', false],
      ['Time-based OTP', 'Medium security', false],
    ]);
    expect(cards.every((card) => card.querySelector('p')?.textContent)).toBe(true);
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('returns to the methods from a verify step with Back to Methods', async () => {
    fakeApi({ 'GET /api/auth/user': owner });
    renderPage();
    await openMasterKey();
    expect(screen.queryAllByTestId('method-card')).toHaveLength(0);
    expect(screen.getByRole('heading', { name: 'Master Security Key' })).toBeTruthy();
    fireEvent.click(button('Back to Methods'));
    expect(screen.getAllByTestId('method-card')).toHaveLength(3);
    expect(screen.queryByLabelText('Master key')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Back to Methods' })).toBeNull();
  });
});

describe('email verification', () => {
  it('requests the e-mail as soon as it is chosen, says it was sent, and reloads on request', async () => {
    const api = fakeApi({
      'GET /api/auth/user': owner,
      [ELEVATE]: { success: false, pending: true, message: 'A verification link was sent to owner@acme.test' },
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Use Email Verification' }));
    // Nothing more to enter or click: the request goes out on the choice itself.
    await waitFor(() => expect(elevateBodies(api)).toEqual([{ method: 'email_verification' }]));
    expect(
      await screen.findByText('A verification email was sent to owner@acme.test. Follow the link in it, then come back here.'),
    ).toBeTruthy();
    expect(screen.queryByText('Elevation Failed')).toBeNull();
    expect(reloadPage).not.toHaveBeenCalled();
    fireEvent.click(button("I've verified via email"));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('reports a refused request and offers to send it again', async () => {
    let answers = 0;
    const api = fakeApi({
      'GET /api/auth/user': owner,
      [ELEVATE]: () =>
        ++answers === 1
          ? apiError(429, 'Too many failed attempts. Try again within 15 minutes.')(undefined)
          : Response.json({ success: false, pending: true, message: 'sent' }),
    });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Use Email Verification' }));
    expect(await screen.findByText('The verification email was not sent.')).toBeTruthy();
    expect(await screen.findByText('Elevation Failed')).toBeTruthy();
    expect(screen.getByText('Too many failed attempts. Try again within 15 minutes.')).toBeTruthy();
    fireEvent.click(button('Send again'));
    expect(await screen.findByText(/^A verification email was sent to owner@acme.test/)).toBeTruthy();
    expect(elevateBodies(api)).toEqual([{ method: 'email_verification' }, { method: 'email_verification' }]);
  });
});

describe('master key', () => {
  it('keeps Verify Access disabled while the key is empty, and shows Verifying... while the call is pending', async () => {
    const answer = deferred();
    const api = fakeApi({ 'GET /api/auth/user': owner, [ELEVATE]: answer.route });
    renderPage();
    const input = await openMasterKey();
    expect(input.getAttribute('type')).toBe('password');
    expect(button('Verify Access').disabled).toBe(true);
    fireEvent.change(input, { target: { value: 's3cret' } });
    expect(button('Verify Access').disabled).toBe(false);
    fireEvent.click(button('Verify Access'));
    expect((await screen.findByRole('button', { name: 'Verifying...' })).hasAttribute('disabled')).toBe(true);
    expect(elevateBodies(api)).toEqual([{ method: 'master_key', masterKey: 's3cret' }]);
    await act(async () => answer.release({ message: 'Invalid master key' }, 403));
    expect(await screen.findByRole('button', { name: 'Verify Access' })).toBeTruthy();
  });

  it('on success toasts, refreshes the auth user and goes to / 1.5 s after the answer', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick'] });
    let reads = 0;
    const api = fakeApi({
      // The second read is the refresh the success causes: the account is super admin by then.
      'GET /api/auth/user': () => (++reads === 1 ? owner : { ...owner, role: 'super_admin', canElevate: false }),
      [ELEVATE]: ELEVATED,
    });
    await sendMasterKey('s3cret');
    expect(screen.getByText('Privilege Elevation Successful')).toBeTruthy();
    expect(api.callsTo('GET', '/api/auth/user')).toHaveLength(2);
    expect(screen.getByText('You now have super admin access. Redirecting...', { selector: 'section' })).toBeTruthy();
    expect(screen.queryByRole('note')).toBeNull();
    await tick(1500 - FRAME_MS - 1);
    expect(screen.getByTestId('location').textContent).toBe('/elevate');
    await tick(1);
    expect(screen.getByTestId('location').textContent).toBe('/');
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
  });

  it('does not navigate once the page is gone before the 1.5 s are up', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick'] });
    fakeApi({ 'GET /api/auth/user': owner, [ELEVATE]: ELEVATED });
    await sendMasterKey('s3cret');
    expect(screen.getByText('Privilege Elevation Successful')).toBeTruthy();
    fireEvent.click(button('Remove page'));
    await tick(5000);
    expect(screen.getByTestId('location').textContent).toBe('/elevate');
  });

  it.each([
    ['the server’s message', apiError(403, 'Invalid master key'), 'Invalid master key'],
    ['the message of an answer that did not elevate', () => Response.json({ success: false, message: 'Not now' }), 'Not now'],
    ['the default text when there is no message', () => new Response(null, { status: 500 }), 'Invalid credentials or verification failed'],
    [
      'the 429 message saying when to try again',
      apiError(429, 'Too many failed attempts. Try again within 15 minutes.'),
      'Too many failed attempts. Try again within 15 minutes.',
    ],
    [
      'a 429 text of its own when the answer has no message',
      () => new Response(null, { status: 429 }),
      'Too many failed attempts. Try again later.',
    ],
  ])('on failure toasts Elevation Failed with %s, and stays', async (_case, route, text) => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick'] });
    fakeApi({ 'GET /api/auth/user': owner, [ELEVATE]: route });
    await sendMasterKey('wrong');
    expect(screen.getByText('Elevation Failed')).toBeTruthy();
    expect(screen.getByText(text)).toBeTruthy();
    expect(screen.queryByText('Privilege Elevation Successful')).toBeNull();
    await tick(3000);
    expect(screen.getByTestId('location').textContent).toBe('/elevate');
    expect(screen.getByLabelText('Master key')).toBeTruthy();
  });
});
