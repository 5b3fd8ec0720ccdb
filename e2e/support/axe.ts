import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The serious and critical axe violations on the page as it is now, named by `where` so a failure says which
 * screen, tab or dialog it was: compare with `{ where, violations: [] }`. `alsoRules` turns on rules axe leaves
 * off by default, such as 'target-size' (WCAG 2.5.8's 24 px targets) for a touch screen.
 */
export async function seriousViolations(
  page: Page,
  where: string,
  alsoRules: readonly string[] = [],
): Promise<{ where: string; violations: string[] }> {
  const rules = Object.fromEntries(alsoRules.map((rule) => [rule, { enabled: true }]));
  const results = await new AxeBuilder({ page }).options({ rules }).analyze();
  const violations = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  return { where, violations };
}
