/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, render, screen } from '@testing-library/react';
import { TOAST } from '@cbh/contracts';
import { dismissToast, toast } from './toast-store';
import { Toaster } from './Toaster';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('notifications', () => {
  it('shows one toast at a time, the newest', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Test Started', description: 'Load test session has been initiated.' });
      toast({ title: 'Test Stopped', description: 'Load test session has been stopped.' });
    });
    expect(screen.getByText('Test Stopped')).toBeTruthy();
    expect(screen.queryByText('Test Started')).toBeNull();
  });

  it('closes a toast after 5000 ms', () => {
    render(<Toaster />);
    act(() => void toast({ title: 'Domain Added' }));
    act(() => void jest.advanceTimersByTime(TOAST.durationMs - 100));
    expect(screen.getByText('Domain Added')).toBeTruthy();
    act(() => void jest.advanceTimersByTime(200));
    expect(screen.queryByText('Domain Added')).toBeNull();
  });

  it('offers the notification region on F8', () => {
    render(<Toaster />);
    expect(screen.getByRole('region').getAttribute('aria-label')).toMatch(/F8/);
  });

  it('keeps a dismissed toast in memory for the removal delay only', () => {
    const { container } = render(<Toaster />);
    let id = 0;
    act(() => void (id = toast({ title: 'User Invited' })));
    act(() => dismissToast(id));
    act(() => void jest.advanceTimersByTime(TOAST.removeDelayMs));
    expect(container.textContent).not.toContain('User Invited');
  });

  it('caps the region at 420 px wide', () => {
    expect(TOAST.maxWidthPx).toBe(420);
    render(<Toaster />);
    const viewport = document.querySelector('ol')!;
    expect(getComputedStyle(viewport).maxWidth).toBe('420px');
  });
});
