import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * The serious and critical axe violations on the page as it is now, named by `where` so a failure says which
 * screen, tab or dialog it was: compare with `{ where, violations: [] }`. `alsoRules` turns on rules axe leaves
 * off by default, such as 'target-size' (WCAG 2.5.8's 24 px targets) for a touch screen.
 *
 * axe runs in the page itself (`setLegacyMode`): by default AxeBuilder runs it in each frame, then opens a blank page,
 * injects axe there again and finishes the run in it, which took three times the CPU of one run in the page here
 * (0.6–0.8 s of Chromium's and 0.4–0.9 s of the test's against 0.2–0.3 s and 0.08 s) and is needed only for frames
 * of other origins, which the hub's pages have none of. Only violations are detailed (`resultTypes`): the passes and
 * incomplete checks, which axe otherwise lists node by node, are never read.
 */
export async function seriousViolations(
  page: Page,
  where: string,
  alsoRules: readonly string[] = [],
): Promise<{ where: string; violations: string[] }> {
  const rules = Object.fromEntries(alsoRules.map((rule) => [rule, { enabled: true }]));
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ rules, resultTypes: ['violations'] })
    .analyze();
  const violations = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  return { where, violations };
}
