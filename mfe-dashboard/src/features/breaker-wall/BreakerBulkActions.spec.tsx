/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { apiError, authUser, clickAndSettle } from '@cbh/test-support';
import { choose, liveConnectionForThisFile, renderWall, tile, wallApi } from './BreakerWallPage.test-kit';
import { tileState } from './wall-view';

// Choosing breakers on the wall and acting on them at once: who may, what is asked, and what a tile re-renders.

// counted: a tile works out its state once per render
jest.mock('./wall-view', () => {
  const actual = jest.requireActual('./wall-view');
  return { ...actual, tileState: jest.fn(actual.tileState) };
});

liveConnectionForThisFile();

describe('acting on many breakers', () => {
  const bulkOperator = authUser({
    email: 'omar@example.com',
    role: 'operator',
    permissions: ['circuit_breaker_view', 'circuit_breaker_operate', 'bulk_operations'],
  });
  const bulkAdmin = authUser({
    email: 'ada@example.com',
    role: 'admin',
    permissions: ['circuit_breaker_view', 'circuit_breaker_operate', 'circuit_breaker_admin', 'bulk_operations'],
  });
  const checkbox = (name: string) => screen.getByRole('checkbox', { name: `Select ${name}` }) as HTMLInputElement;
  const toolbar = () => within(screen.getByRole('toolbar', { name: 'Actions on the chosen breakers' }));
  const selectAll = () => toolbar().getByRole('checkbox', { name: 'Select all shown' }) as HTMLInputElement;
  const actionNames = () =>
    toolbar()
      .getAllByRole('button')
      .map((button) => button.textContent);

  it('offers no checkboxes without bulk_operations, and only the actions each permission allows with it', async () => {
    wallApi(authUser({ email: 'o@example.com', role: 'operator', permissions: ['circuit_breaker_view', 'circuit_breaker_operate'] }));
    renderWall();
    await waitFor(() => expect(screen.getAllByTestId('breaker-tile')).toHaveLength(3));
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('toolbar')).toBeNull();
    cleanup();

    wallApi(bulkOperator);
    renderWall();
    await waitFor(() => expect(checkbox('payments')).toBeTruthy());
    // the toolbar is fetched on first use, for holders of bulk_operations only
    await screen.findByRole('toolbar', { name: 'Actions on the chosen breakers' });
    expect(actionNames()).toEqual(['Force open', 'Force closed', 'Reset']);
    cleanup();

    wallApi(bulkAdmin);
    renderWall();
    await waitFor(() => expect(checkbox('payments')).toBeTruthy());
    // the toolbar is fetched on first use, for holders of bulk_operations only
    await screen.findByRole('toolbar', { name: 'Actions on the chosen breakers' });
    expect(actionNames()).toEqual(['Force open', 'Force closed', 'Reset', 'Delete']);
  });

  it('selects tiles one by one or all shown (the filters applied), counting them', async () => {
    wallApi(bulkAdmin);
    renderWall();
    await waitFor(() => expect(checkbox('payments')).toBeTruthy());
    // the toolbar is fetched on first use, for holders of bulk_operations only
    await screen.findByRole('toolbar', { name: 'Actions on the chosen breakers' });
    expect(toolbar().getByText('0 selected')).toBeTruthy();
    expect(toolbar().getByRole('button', { name: 'Force open' }).hasAttribute('disabled')).toBe(true);

    fireEvent.click(checkbox('search'));
    expect(checkbox('search').checked).toBe(true);
    expect(tile('search').hasAttribute('data-selected')).toBe(true);
    expect(toolbar().getByText('1 selected')).toBeTruthy();
    expect(selectAll().indeterminate).toBe(true);

    fireEvent.click(selectAll());
    expect(['payments', 'accounts', 'search'].map((name) => checkbox(name).checked)).toEqual([true, true, true]);
    expect(toolbar().getByText('3 selected')).toBeTruthy();
    fireEvent.click(selectAll());
    expect(toolbar().getByText('0 selected')).toBeTruthy();

    // with a filter, all shown is the simple breaker only; what the filter hides is not counted or acted on
    choose('Type', 'simple');
    fireEvent.click(selectAll());
    expect(toolbar().getByText('1 selected')).toBeTruthy();
    choose('Type', 'all');
    expect(['payments', 'accounts', 'search'].map((name) => checkbox(name).checked)).toEqual([true, false, false]);
  });

  it('asks once, naming how many, which and what happens, then acts on them all and sums the outcomes up', async () => {
    let body: unknown;
    const api = wallApi(bulkAdmin, {
      'POST /api/circuit-breakers/bulk': (sent: unknown) => {
        body = sent;
        return {
          results: [
            { id: 2, ok: true, status: 204 },
            {
              id: 1,
              ok: false,
              status: 409,
              message: 'Circuit breaker payments has a load test running (session 4); stop it before deleting the breaker',
            },
          ],
        };
      },
    });
    renderWall();
    await waitFor(() => expect(checkbox('payments')).toBeTruthy());
    // the toolbar is fetched on first use, for holders of bulk_operations only
    await screen.findByRole('toolbar', { name: 'Actions on the chosen breakers' });
    fireEvent.click(checkbox('payments'));
    fireEvent.click(checkbox('accounts'));
    fireEvent.click(toolbar().getByRole('button', { name: 'Delete' }));

    const dialog = within(await screen.findByRole('alertdialog', { name: 'Delete 2 breakers?' }));
    expect(dialog.getByText(/^accounts and payments\. Their configurations, journals and load-test history are deleted/)).toBeTruthy();
    expect(api.callsTo('POST', '/api/circuit-breakers/bulk')).toHaveLength(0);
    await clickAndSettle(dialog.getByRole('button', { name: 'Delete 2 breakers' }));

    await waitFor(() => expect(api.callsTo('POST', '/api/circuit-breakers/bulk')).toHaveLength(1));
    // in the wall's order (by name)
    expect(body).toEqual({ action: 'delete', ids: [2, 1] });
    expect(await screen.findByText('Delete: not every breaker changed')).toBeTruthy();
    expect(
      screen.getByText(
        '1 deleted, 1 failed: Circuit breaker payments has a load test running (session 4); stop it before deleting the breaker',
      ),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    // the one that failed stays chosen
    expect([checkbox('payments').checked, checkbox('accounts').checked]).toEqual([true, false]);
  });

  it('says when the request itself was refused', async () => {
    wallApi(bulkOperator, { 'POST /api/circuit-breakers/bulk': apiError(403, 'Requires the bulk_operations permission') });
    renderWall();
    await waitFor(() => expect(checkbox('search')).toBeTruthy());
    fireEvent.click(checkbox('search'));
    fireEvent.click(toolbar().getByRole('button', { name: 'Force open' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Force open 1 breaker?' }));
    await clickAndSettle(dialog.getByRole('button', { name: 'Force open 1 breaker' }));
    expect(await screen.findByText('Requires the bulk_operations permission')).toBeTruthy();
    expect(checkbox('search').checked).toBe(true);
  });

  it('re-renders only the tile whose choice changed', async () => {
    wallApi(bulkAdmin);
    renderWall();
    await waitFor(() => expect(checkbox('payments')).toBeTruthy());
    // the toolbar is fetched on first use, for holders of bulk_operations only
    await screen.findByRole('toolbar', { name: 'Actions on the chosen breakers' });
    // each tile works out its state once per render
    const rendersOf = (id: number) => jest.mocked(tileState).mock.calls.filter(([tile]) => tile.breaker.id === id).length;
    const before = [1, 2, 3].map(rendersOf);
    fireEvent.click(checkbox('search'));
    expect(checkbox('search').checked).toBe(true);
    expect([1, 2, 3].map(rendersOf)).toEqual([before[0], before[1], before[2]! + 1]);
  });
});
