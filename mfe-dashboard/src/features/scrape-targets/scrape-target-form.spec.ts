import { createScrapeTargetSchema, updateScrapeTargetSchema, type ScrapeTargetView } from '@cbh/contracts';
import { SCRAPE_TARGET_FORM } from './scrape-target-form';

const TARGET = {
  id: 1,
  name: 'orders',
  url: 'https://orders.internal/actuator/prometheus',
  intervalSeconds: 15,
  bearerTokenSet: true,
} as ScrapeTargetView;

const draft = (fields = {}) => ({ ...SCRAPE_TARGET_FORM.empty(), name: 'orders', url: TARGET.url, ...fields });
const schemaMessage = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  result.error?.issues.find((issue) => issue.path[0] === field)?.message;

it('judges the interval as a whole number of seconds in the schema’s words, and leaves it to the server’s default when empty', () => {
  expect(SCRAPE_TARGET_FORM.problems(draft(), true)).toEqual({});
  const half = draft({ intervalSeconds: '7.5' });
  expect(SCRAPE_TARGET_FORM.problems(half, true).intervalSeconds).toBe(
    schemaMessage(createScrapeTargetSchema.safeParse(SCRAPE_TARGET_FORM.toCreate(half)), 'intervalSeconds'),
  );
  // editing, the field holds the interval: emptied, it is not a number
  expect(SCRAPE_TARGET_FORM.problems(SCRAPE_TARGET_FORM.draftOf(TARGET), false)).toEqual({});
  expect(SCRAPE_TARGET_FORM.problems({ ...SCRAPE_TARGET_FORM.draftOf(TARGET), intervalSeconds: '' }, false).intervalSeconds).toBe(
    'must be a whole number of seconds',
  );
  expect(SCRAPE_TARGET_FORM.problems(draft({ name: ' ', url: '' }), true)).toEqual({ name: 'is required', url: 'is required' });
});

it('sends what createScrapeTargetSchema and updateScrapeTargetSchema take', () => {
  const created = SCRAPE_TARGET_FORM.toCreate(draft({ name: ' payments ', intervalSeconds: '30', bearerToken: 'token' }));
  expect(created).toEqual({ name: 'payments', url: TARGET.url, intervalSeconds: 30, bearerToken: 'token' });
  expect(createScrapeTargetSchema.safeParse(created).success).toBe(true);

  const kept = SCRAPE_TARGET_FORM.draftOf(TARGET);
  expect(SCRAPE_TARGET_FORM.toUpdate(kept, TARGET)).toEqual({});
  const patch = SCRAPE_TARGET_FORM.toUpdate({ ...kept, name: 'orders-eu', bearerToken: 'new-token' }, TARGET);
  expect(patch).toEqual({ name: 'orders-eu', bearerToken: 'new-token' });
  expect(updateScrapeTargetSchema.safeParse(patch).success).toBe(true);
  expect(SCRAPE_TARGET_FORM.toUpdate({ ...kept, bearerToken: 'ignored', removeToken: true }, TARGET)).toEqual({ bearerToken: null });
});
