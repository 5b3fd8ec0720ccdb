/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '@cbh/router';
import { Sidebar } from './Sidebar';

function renderSidebar() {
  render(
    <MemoryRouter>
      <Sidebar />
    </MemoryRouter>,
  );
  return screen.getByRole('complementary', { name: 'Service Logic' });
}

const SLUGS = [
  'core',
  'data-access',
  'validation',
  'auth',
  'events',
  'notifications',
  'telemetry',
  'error-handling',
  'schema',
  'middleware',
  'rate-limiter',
  'background-tasks',
  'versioning',
  'audit-trail',
  'cache',
];

describe('Service Logic sidebar', () => {
  it('links the 15 service components under /services/ in five groups', () => {
    const sidebar = renderSidebar();
    const hrefs = within(sidebar)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(hrefs.sort()).toEqual(SLUGS.map((s) => `/services/${s}`).sort());
    expect(
      within(sidebar)
        .getAllByRole('group')
        .map((g) => g.getAttribute('aria-label')),
    ).toEqual(['Core Logic', 'Data Management', 'Security', 'Communication', 'Monitoring']);
  });

  it('marks notifications and rate-limiter as monitoring, versioning as inactive, all others active', () => {
    const sidebar = renderSidebar();
    const statusOf = (slug: string) =>
      within(sidebar)
        .getAllByRole('link')
        .find((a) => a.getAttribute('href') === `/services/${slug}`)!.dataset.status;
    expect(statusOf('notifications')).toBe('monitoring');
    expect(statusOf('rate-limiter')).toBe('monitoring');
    expect(statusOf('versioning')).toBe('inactive');
    expect(SLUGS.filter((s) => statusOf(s) === 'active')).toHaveLength(12);
  });

  it('collapses a group', () => {
    const sidebar = renderSidebar();
    fireEvent.click(within(sidebar).getByRole('button', { name: /Security/ }));
    expect(within(sidebar).queryByRole('link', { name: 'Rate Limiter' })).toBeNull();
    expect(within(sidebar).getByRole('link', { name: 'Cache' })).toBeTruthy();
  });

  it('shrinks to its status dots and grows back', () => {
    const sidebar = renderSidebar();
    fireEvent.click(within(sidebar).getByRole('button', { name: 'Shrink sidebar' }));
    expect(sidebar.dataset.shrunk).toBe('true');
    expect(within(sidebar).queryByText('Service Logic')).toBeNull();
    expect(within(sidebar).getAllByRole('link')).toHaveLength(15);
    expect(within(sidebar).getByRole('link', { name: 'Cache' }).textContent).toBe('');
    fireEvent.click(within(sidebar).getByRole('button', { name: 'Expand sidebar' }));
    expect(within(sidebar).getByText('Service Logic')).toBeTruthy();
  });
});
