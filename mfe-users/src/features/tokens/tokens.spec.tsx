/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import type { Permission } from '@cbh/contracts';
import { PermissionToggles } from './PermissionToggles';
import { TOKEN_SHOWN_ONCE_WARNING, TokenSecret } from './TokenSecret';

const TOKEN = 'cbh_3fA9kQ2xSECRETsecretSECRETsecretSECRETsecre';

function clipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

describe('TokenSecret', () => {
  afterEach(() => jest.useRealTimers());

  it('shows the token with the warning, copies it and says so for a moment', async () => {
    jest.useFakeTimers();
    const writes: string[] = [];
    clipboard(async (text) => void writes.push(text));
    render(<TokenSecret token={TOKEN} />);
    expect(screen.getByRole('alert').textContent).toBe('Copy this token now: it will not be shown again.');
    expect(TOKEN_SHOWN_ONCE_WARNING).toBe('Copy this token now: it will not be shown again.');
    const field = screen.getByLabelText('Access token') as HTMLInputElement;
    expect(field.value).toBe(TOKEN);
    expect(field.readOnly).toBe(true);
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Copy' })));
    expect(writes).toEqual([TOKEN]);
    expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy();
    act(() => jest.advanceTimersByTime(2000));
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it('asks to select and copy by hand where the clipboard refuses', async () => {
    clipboard(async () => {
      throw new Error('not a secure context');
    });
    render(<TokenSecret token={TOKEN} />);
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Copy' })));
    expect(screen.getByRole('button', { name: 'Select and copy' })).toBeTruthy();
  });
});

describe('PermissionToggles', () => {
  function Harness({ allowed, initial }: { allowed: readonly string[]; initial: Permission[] }) {
    const [selected, setSelected] = useState<ReadonlySet<Permission>>(new Set(initial));
    return (
      <>
        <PermissionToggles allowed={allowed} selected={selected} onChange={setSelected} />
        <output>{[...selected].sort().join(',')}</output>
      </>
    );
  }

  it('offers a checkbox per allowed permission, in the canonical order, and reports the selection', () => {
    render(<Harness allowed={['metrics_view', 'circuit_breaker_view', 'not_a_permission']} initial={['metrics_view']} />);
    expect(screen.getByRole('group', { name: 'Permissions' })).toBeTruthy();
    const boxes = screen.getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((box) => box.parentElement!.textContent)).toEqual([
      'View circuit breakerscircuit_breaker_view',
      'View metricsmetrics_view',
    ]);
    expect(boxes.map((box) => box.checked)).toEqual([false, true]);
    fireEvent.click(screen.getByRole('checkbox', { name: /circuit_breaker_view\b/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /metrics_view\b/ }));
    expect(screen.getByRole('status').textContent).toBe('circuit_breaker_view');
  });
});
