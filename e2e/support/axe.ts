import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The serious and critical axe violations on the page as it is now, named by `where` so a failure says which
 * screen, tab or dialog it was: compare with `{ where, violations: [] }`.
 */
export async function seriousViolations(page: Page, where: string): Promise<{ where: string; violations: string[] }> {
  const results = await new AxeBuilder({ page }).analyze();
  const violations = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  return { where, violations };
}
