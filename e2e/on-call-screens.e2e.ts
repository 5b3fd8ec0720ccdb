import { expect, test, type Browser, type Locator, type Page } from './support/test';
import { freePort } from '../tools/testing/free-port.mjs';
import { ACCOUNTS_ENV, ADMIN, ownDatabase, startSite, type Site } from './support/server';
import { seriousViolations } from './support/axe';
import { checkScreen, signedInOn } from './support/screens';
import { apiSignIn, createBreaker, siteApi } from './support/site-api';

/**
 * The on-call screens of the production build, as a person paged sees them: with a policy whose step 1 posts to a log
 * channel (which needs no network) and a rule routing two breakers' openings to it, a breaker forced open through the
 * API shows on the open On Call page without a reload, with the top bar's firing count; the group's page shows the
 * opening and step 1 on its timeline and the log channel among its deliveries, and is acknowledged and resolved there
 * while the count follows; the policy and a schedule (who is on call now, the next days) on their tabs; axe and no
 * sideways scroll at 1400 and 390 px.
 *
 * On a site and database of its own: the top bar's count is of every firing group on the site, so it must count this
 * file's groups alone, and a group left firing by a failure here must not show in other files' top bars.
 */
const DATABASE = `on_call_screens_e2e_${process.pid}`;
const CHANNEL = 'on-call-screens-log';

let site: Site;
let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let cookie: string;
let first: { id: number; name: string };
let second: { id: number; name: string };
let third: { id: number; name: string };
let policy: { id: string; name: string };
let schedule: { id: string; name: string };

test.describe.configure({ mode: 'serial' });

async function json<T>(response: Promise<Response>, status: number): Promise<T> {
  const answered = await response;
  expect(answered.status, await answered.clone().text()).toBe(status);
  return (await answered.json()) as T;
}
const created = <T = { id: string }>(path: string, body: unknown) => json<T>(siteApi(site, cookie, path, 'POST', body), 201);
const forceOpen = (id: number) => json(siteApi(site, cookie, `/api/circuit-breakers/${id}/force-open`, 'POST'), 200);
const groupsOf = async (breakerId: number) =>
  (
    await json<{ items: { id: number; title: string; state: string }[] }>(
      siteApi(site, cookie, `/api/alert-groups?subject=breaker:${breakerId}`),
      200,
    )
  ).items;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await ownDatabase(DATABASE);
  const port = await freePort();
  site = await startSite({ port, env: { ...ACCOUNTS_ENV, DATABASE_URL: database.url, PUBLIC_URL: `http://127.0.0.1:${port}` } });
  cookie = await apiSignIn(site);
  const me = await json<{ id: string }>(siteApi(site, cookie, '/api/auth/user'), 200);
  const channel = await created('/api/notification-channels', { name: CHANNEL, type: 'log' });
  schedule = await created('/api/schedules', {
    name: 'Checkout primary',
    timeZone: 'UTC',
    rotations: [{ users: [me.id], start: '2026-01-01T09:00', lengthHours: 'weekly', handoffTime: '09:00' }],
  });
  // an hour's wait: step 2 never comes while the tests run
  policy = await created('/api/escalation-policies', {
    name: 'Checkout paging',
    steps: [
      { notify: { channels: [channel.id] }, waitMinutes: 60 },
      { notify: { schedule: schedule.id }, waitMinutes: 30 },
    ],
    repeat: 0,
  });
  first = await createBreaker(site, cookie, 'Checkout card payments');
  second = await createBreaker(site, cookie, 'Checkout vouchers');
  third = await createBreaker(site, cookie, 'Checkout gift cards');
  await created('/api/notification-rules', {
    name: 'Checkout pages',
    events: ['breaker.opened'],
    breakers: [first.name, second.name, third.name],
    escalationPolicyId: policy.id,
  });
});

test.afterAll(async () => {
  await site?.stop();
  await database?.drop();
});

const signedIn = (browser: Browser, width?: number, height?: number) => signedInOn(site, browser, width, height);

/** The top bar's firing count: a link to On Call named by how many fire. */
const firingCount = (page: Page) => page.getByRole('banner').getByTestId('firing-alert-groups');
const openGroups = (page: Page) => page.getByRole('region', { name: 'Open alert groups' });
const rowOf = (page: Page, title: string): Locator =>
  openGroups(page).locator('[data-testid^="alert-group-row-"]').filter({ hasText: title });

test('a breaker opens: its group shows live on On Call with the top bar’s count, and is acknowledged and resolved on its page', async ({
  browser,
}) => {
  const page = await signedIn(browser);
  await page.goto('/on-call');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('On Call');
  await expect(openGroups(page).getByText('No alert group is open: nothing is firing.')).toBeVisible();
  await expect(firingCount(page)).toHaveCount(0);
  // a mark the page would lose on a reload
  await page.evaluate(() => ((window as { unreloaded?: boolean }).unreloaded = true));

  await forceOpen(first.id);
  const title = `Breaker opened: ${first.name}`;
  const row = rowOf(page, title);
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row.getByTestId('alert-group-state')).toHaveText('Firing');
  await expect(row.getByRole('link', { name: first.name, exact: true })).toHaveAttribute('href', `/circuit-breakers/${first.id}`);
  await expect(firingCount(page)).toHaveAccessibleName('1 firing alert group');
  await expect(firingCount(page)).toHaveText('1 firing');
  await expect(firingCount(page)).toHaveAttribute('href', '/on-call');
  expect(await page.evaluate(() => (window as { unreloaded?: boolean }).unreloaded)).toBe(true);
  await checkScreen(page, 'On Call with a firing group at 1400 px');

  // a second breaker opens while the list is open: the count follows
  await forceOpen(second.id);
  await expect(rowOf(page, `Breaker opened: ${second.name}`).getByTestId('alert-group-state')).toHaveText('Firing', { timeout: 15_000 });
  await expect(firingCount(page)).toHaveAccessibleName('2 firing alert groups');

  // the group's page: what opened it, step 1 to the log channel, and the message sent
  await row.getByRole('link', { name: title }).click();
  const [group] = await groupsOf(first.id);
  await expect(page).toHaveURL(`${site.url}/on-call/groups/${group!.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  const facts = page.getByTestId('alert-group-facts');
  await expect(facts.getByTestId('alert-group-state')).toHaveText('Firing');
  await expect(facts).toContainText('Escalation policy' + policy.name);
  const timeline = page.getByRole('list', { name: 'Timeline, oldest first' });
  await expect(timeline.getByRole('listitem')).toHaveText([`${title} (rule Checkout pages)`, `Step 1: channel ${CHANNEL}`].map(endsWith));
  const deliveries = page.getByRole('table', { name: 'Deliveries' });
  await expect(deliveries.getByRole('row').filter({ hasText: `${CHANNEL} (log)` })).toHaveCount(1);
  await expect(facts).toContainText(/Next step\s*Step 2 in (59 minutes|1 hour)/);
  await checkScreen(page, 'a firing group’s page at 1400 px');

  // acknowledged: the escalation stops, the reader is named, and the top bar counts one fewer
  await page.getByRole('button', { name: 'Acknowledge', exact: true }).click();
  await expect(facts.getByTestId('alert-group-state')).toHaveText('Acknowledged');
  await expect(facts).toContainText(`by ${ADMIN.email}`);
  await expect(facts).not.toContainText('Next step');
  await expect(timeline.getByRole('listitem').last()).toContainText(`Acknowledged by ${ADMIN.email}`);
  await expect(firingCount(page)).toHaveAccessibleName('1 firing alert group');
  await expect(page.getByRole('button', { name: 'Unacknowledge' })).toBeVisible();

  // the other group acknowledged by someone else, through the API: the count goes away live
  const [other] = await groupsOf(second.id);
  await json(siteApi(site, cookie, `/api/alert-groups/${other!.id}/acknowledge`, 'POST'), 200);
  await expect(firingCount(page)).toHaveCount(0, { timeout: 15_000 });

  await page.getByRole('button', { name: 'Resolve', exact: true }).click();
  await expect(facts.getByTestId('alert-group-state')).toHaveText('Resolved');
  await expect(facts).toContainText(new RegExp(`Resolved\\s*.+ by ${escaped(ADMIN.email)}`));
  await expect(timeline.getByRole('listitem').last()).toContainText(`Resolved by ${ADMIN.email}`);
  await expect(page.getByRole('button', { name: /^(Acknowledge|Resolve)$/ })).toHaveCount(0);
  expect(await page.evaluate(() => (window as { unreloaded?: boolean }).unreloaded)).toBe(true);

  // back on the list: the acknowledged group open, the resolved one below
  await page.getByRole('link', { name: '← All alert groups' }).click();
  await expect(rowOf(page, `Breaker opened: ${second.name}`).getByTestId('alert-group-state')).toHaveText('Acknowledged');
  await expect(rowOf(page, title)).toHaveCount(0);
  await expect(
    page
      .getByRole('region', { name: 'Recently resolved' })
      .locator(`[data-testid="alert-group-row-${group!.id}"]`)
      .getByTestId('alert-group-state'),
  ).toHaveText('Resolved');
  await page.context().close();
});

test('the Escalation policies and Schedules tabs show the policy step by step and who is on call now and next', async ({ browser }) => {
  const page = await signedIn(browser);
  await page.goto('/on-call');
  await page.getByRole('tab', { name: 'Escalation policies' }).click();
  const row = page.getByRole('region', { name: 'Escalation policies' }).getByTestId(`policy-row-${policy.id}`);
  await expect(row.getByRole('listitem')).toHaveText([`1. log ${CHANNEL} — wait 60 min`, `2. schedule ${schedule.name} — wait 30 min`]);
  await expect(row).toContainText('No repeat');
  await checkScreen(page, 'the Escalation policies tab at 1400 px');

  // its dialog names the channel and the schedule the steps hold
  await row.getByRole('button', { name: `Edit ${policy.name}` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('step-1').getByRole('checkbox', { name: CHANNEL })).toBeChecked();
  await expect(dialog.getByTestId('step-2').getByLabel('Schedule')).toHaveValue(schedule.id);
  await expect(dialog.getByTestId('step-1').getByRole('combobox', { name: 'People' })).toBeVisible();
  expect(await seriousViolations(page, 'the policy dialog')).toEqual({ where: 'the policy dialog', violations: [] });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  await page.getByRole('tab', { name: 'Schedules' }).click();
  const card = page.getByTestId(`schedule-${schedule.id}`);
  await expect(card.getByRole('heading', { name: schedule.name })).toBeVisible();
  const facts = Object.fromEntries(
    await Promise.all(
      (await card.getByRole('term').all()).map(async (term) => [await term.textContent(), await term.locator('+ dd').textContent()]),
    ),
  );
  // the bootstrap admin is named Admin
  expect(facts).toMatchObject({ 'On call now': `Admin (${ADMIN.email})`, 'Time zone': 'UTC' });
  const calendar = card.getByRole('region', { name: `${schedule.name}: shifts of the next 14 days` }).getByRole('table');
  // a header and a row a day, the admin the only one in the rotation and so on call every day
  await expect(calendar.getByRole('row')).toHaveCount(15);
  for (const day of [1, 7, 14]) await expect(calendar.getByRole('row').nth(day)).toContainText(`Admin (${ADMIN.email}) (you)`);
  await checkScreen(page, 'the Schedules tab at 1400 px');
  await page.context().close();
});

test('fits a 390 px phone without sideways scroll, with no serious axe violation', async ({ browser }) => {
  await forceOpen(third.id);
  await expect.poll(async () => (await groupsOf(third.id)).length, { timeout: 15_000 }).toBe(1);
  const [firing] = await groupsOf(third.id);

  const page = await signedIn(browser, 390, 844);
  await expect(firingCount(page)).toHaveAccessibleName('1 firing alert group');
  await firingCount(page).click();
  await expect(page).toHaveURL(`${site.url}/on-call`);
  await expect(rowOf(page, firing!.title).getByTestId('alert-group-state')).toHaveText('Firing');
  await checkScreen(page, 'On Call at 390 px');
  for (const tab of ['Escalation policies', 'Schedules']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tabpanel')).toBeVisible();
    await expect(
      page
        .getByRole('tabpanel')
        .getByText(tab === 'Schedules' ? schedule.name : policy.name)
        .first(),
    ).toBeVisible();
    await checkScreen(page, `the ${tab} tab at 390 px`);
  }

  await page.goto(`/on-call/groups/${firing!.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(firing!.title);
  await expect(page.getByTestId('alert-group-facts').getByTestId('alert-group-state')).toHaveText('Firing');
  await expect(page.getByRole('list', { name: 'Timeline, oldest first' }).getByRole('listitem')).toHaveCount(2);
  await checkScreen(page, 'a group’s page at 390 px');
  await page.getByRole('button', { name: 'Acknowledge', exact: true }).click();
  await expect(page.getByTestId('alert-group-facts').getByTestId('alert-group-state')).toHaveText('Acknowledged');
  await expect(firingCount(page)).toHaveCount(0);
  await checkScreen(page, 'an acknowledged group’s page at 390 px');
  await page.context().close();
});

/** `text` matched literally in a regular expression. */
function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A timeline line's text ends with the entry's words (its time comes first). */
function endsWith(text: string): RegExp {
  return new RegExp(`${escaped(text)}$`);
}
