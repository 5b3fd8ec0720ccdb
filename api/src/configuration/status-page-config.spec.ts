import type { StatusPageView } from '@cbh/contracts';
import { apiForThisFile, DEMO_PASSWORD, signIn } from '../../test/test-api';
import { changed, documentRoutes, refusal } from './document.test-kit';

const spec = apiForThisFile();
const { exportedDocument, importing, imported } = documentRoutes(spec);

it('creates a status page whose component names a breaker the same document creates, exports it by names, and is idempotent', async () => {
  const document = await exportedDocument();
  document.breakers.push({ ...document.breakers[0]!, name: 'Ledger' });
  document.statusPages = [
    {
      slug: 'payments',
      title: 'Payments',
      public: true,
      components: [{ name: 'Card payments', group: 'Checkout', breakers: ['Ledger', 'Payment Gateway'], domains: [] }],
    },
  ];
  expect(changed(await imported(document))).toEqual([
    { kind: 'breaker', name: 'Ledger', action: 'create' },
    { kind: 'statusPage', name: 'payments', action: 'create' },
  ]);
  const [page] = (await (await spec.api.call('/api/status-pages', { cookie: spec.admin })).json()) as StatusPageView[];
  const ids = (
    await spec.api.sql("SELECT id, name FROM circuit_breaker_configs WHERE name IN ('Ledger', 'Payment Gateway') ORDER BY name")
  ).map((row: { id: number }) => row.id);
  expect(page!.components[0]!.breakers.sort()).toEqual(ids.sort());
  const again = await exportedDocument();
  expect(again.statusPages).toEqual([
    {
      slug: 'payments',
      title: 'Payments',
      public: true,
      components: [{ name: 'Card payments', group: 'Checkout', breakers: ['Ledger', 'Payment Gateway'], domains: [] }],
    },
  ]);
  expect(changed(await imported(again))).toEqual([]);

  again.statusPages![0]!.title = 'Payments and payouts';
  expect(changed(await imported(again))).toEqual([{ kind: 'statusPage', name: 'payments', action: 'update', fields: ['title'] }]);
  expect(changed(await imported({ ...again, statusPages: [] }, { query: '?prune=true' }))).toEqual([
    { kind: 'statusPage', name: 'payments', action: 'delete' },
  ]);
});

it('names an unknown breaker by its place, and refuses the list to an account without circuit_breaker_admin', async () => {
  const document = await exportedDocument();
  document.statusPages = [{ slug: 'ghost', title: 'Ghost', public: true, components: [{ name: 'A', breakers: ['nobody'], domains: [] }] }];
  expect(await refusal(await importing(document))).toEqual({
    status: 400,
    message: 'statusPages[0] (ghost): statusPages[0].components[0].breakers: no breaker named nobody',
  });
  const viewer = await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
  const response = await importing(
    { version: 1, breakers: [], services: [], domains: [], statusPages: [] },
    { caller: { cookie: viewer } },
  );
  expect(response.status).toBe(403);
});
