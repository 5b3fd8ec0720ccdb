/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { act, render, screen } from '@testing-library/react';
import { TOAST } from '@cbh/contracts';
import { dismissToast, toast } from './toast-store';
import { ToastRegion } from './ToastRegion';
import { Toaster } from './Toaster';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('the toaster', () => {
  // first in this file: no toast has been raised yet
  it('renders nothing before the first toast, then loads the region and shows the toast', async () => {
    const { container } = render(<Toaster />);
    expect(container.innerHTML).toBe('');
    act(() => void toast({ title: 'Domain Added' }));
    expect(await screen.findByText('Domain Added')).toBeTruthy();
    expect(screen.getByRole('region').getAttribute('aria-label')).toMatch(/F8/);
  });
});

describe('notifications', () => {
  it('shows one toast at a time, the newest', () => {
    render(<ToastRegion />);
    act(() => {
      toast({ title: 'Test Started', description: 'Load test session has been initiated.' });
      toast({ title: 'Test Stopped', description: 'Load test session has been stopped.' });
    });
    expect(screen.getByText('Test Stopped')).toBeTruthy();
    expect(screen.queryByText('Test Started')).toBeNull();
  });

  it('closes a toast after 5000 ms', () => {
    render(<ToastRegion />);
    act(() => void toast({ title: 'Domain Added' }));
    act(() => void jest.advanceTimersByTime(TOAST.durationMs - 100));
    expect(screen.getByText('Domain Added')).toBeTruthy();
    act(() => void jest.advanceTimersByTime(200));
    expect(screen.queryByText('Domain Added')).toBeNull();
  });

  it('offers the notification region on F8', () => {
    render(<ToastRegion />);
    expect(screen.getByRole('region').getAttribute('aria-label')).toMatch(/F8/);
  });

  it('keeps a dismissed toast in memory for the removal delay only', () => {
    const { container } = render(<ToastRegion />);
    let id = 0;
    act(() => void (id = toast({ title: 'User Invited' })));
    act(() => dismissToast(id));
    act(() => void jest.advanceTimersByTime(TOAST.removeDelayMs));
    expect(container.textContent).not.toContain('User Invited');
  });

  it('caps the region at 420 px wide', () => {
    expect(TOAST.maxWidthPx).toBe(420);
    render(<ToastRegion />);
    const viewport = document.querySelector('ol')!;
    expect(getComputedStyle(viewport).maxWidth).toBe('420px');
  });

  it("offers a toast's action as a link the host routes, which closes the toast", () => {
    const onNavigate = jest.fn();
    render(<ToastRegion onNavigate={onNavigate} />);
    const action = { label: 'View breaker', href: '/circuit-breakers/3' };
    act(() => void toast({ title: 'Circuit breaker opened: payments', action }));
    const link = screen.getByRole('link', { name: 'View breaker' });
    expect(link.getAttribute('href')).toBe('/circuit-breakers/3');

    const click = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 });
    act(() => void link.dispatchEvent(click));
    expect(click.defaultPrevented).toBe(true);
    expect(onNavigate).toHaveBeenCalledWith('/circuit-breakers/3');
    expect(screen.queryByText('Circuit breaker opened: payments')).toBeNull();

    // a modified click (a new tab) is the browser's to follow
    act(() => void toast({ title: 'Circuit breaker opened: search', action }));
    const newTab = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ctrlKey: true });
    act(() => void screen.getByRole('link', { name: 'View breaker' }).dispatchEvent(newTab));
    expect(newTab.defaultPrevented).toBe(false);
    expect(onNavigate).toHaveBeenCalledTimes(1);
  });
});
