import { createScrapeTargetSchema, updateScrapeTargetSchema, type ScrapeTargetView } from '@cbh/contracts';
import {
  emptyScrapeTargetDraft,
  scrapeTargetDraftOf,
  scrapeTargetProblems,
  scrapeTargetToCreate,
  scrapeTargetToUpdate,
} from './scrape-target-form';

const TARGET = {
  id: 1,
  name: 'orders',
  url: 'https://orders.internal/actuator/prometheus',
  intervalSeconds: 15,
  bearerTokenSet: true,
} as ScrapeTargetView;

const draft = (fields = {}) => ({ ...emptyScrapeTargetDraft(), name: 'orders', url: TARGET.url, ...fields });
const schemaMessage = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }, field: string) =>
  result.error?.issues.find((issue) => issue.path[0] === field)?.message;

it('judges the interval as a whole number of seconds in the schema’s words, and leaves it to the server’s default when empty', () => {
  expect(scrapeTargetProblems(draft(), true)).toEqual({});
  const half = draft({ intervalSeconds: '7.5' });
  expect(scrapeTargetProblems(half, true).intervalSeconds).toBe(
    schemaMessage(createScrapeTargetSchema.safeParse(scrapeTargetToCreate(half)), 'intervalSeconds'),
  );
  // editing, the field holds the interval: emptied, it is not a number
  expect(scrapeTargetProblems(scrapeTargetDraftOf(TARGET), false)).toEqual({});
  expect(scrapeTargetProblems({ ...scrapeTargetDraftOf(TARGET), intervalSeconds: '' }, false).intervalSeconds).toBe(
    'must be a whole number of seconds',
  );
  expect(scrapeTargetProblems(draft({ name: ' ', url: '' }), true)).toEqual({ name: 'is required', url: 'is required' });
});

it('sends what createScrapeTargetSchema and updateScrapeTargetSchema take', () => {
  const created = scrapeTargetToCreate(draft({ name: ' payments ', intervalSeconds: '30', bearerToken: 'token' }));
  expect(created).toEqual({ name: 'payments', url: TARGET.url, intervalSeconds: 30, bearerToken: 'token' });
  expect(createScrapeTargetSchema.safeParse(created).success).toBe(true);

  const kept = scrapeTargetDraftOf(TARGET);
  expect(scrapeTargetToUpdate(kept, TARGET)).toEqual({});
  const patch = scrapeTargetToUpdate({ ...kept, name: 'orders-eu', bearerToken: 'new-token' }, TARGET);
  expect(patch).toEqual({ name: 'orders-eu', bearerToken: 'new-token' });
  expect(updateScrapeTargetSchema.safeParse(patch).success).toBe(true);
  expect(scrapeTargetToUpdate({ ...kept, bearerToken: 'ignored', removeToken: true }, TARGET)).toEqual({ bearerToken: null });
});
