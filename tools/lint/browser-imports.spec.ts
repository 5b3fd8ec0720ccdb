import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * The browser carries no schema library (eslint.config.mjs): a screen that imported a schema of @cbh/contracts, or
 * zod itself, would bring zod into its remote's first download (13 KB gzip, a quarter of a route's budget).
 */
const ROOT = path.resolve(__dirname, '../..');

/** The messages of no-restricted-imports for a file of this text at this path (eslint loads its config as an ES module). */
async function refusals(filePath: string, text: string): Promise<string[]> {
  const run = spawnSync(path.join(ROOT, 'node_modules/.bin/eslint'), ['--stdin', '--stdin-filename', filePath, '--format', 'json'], {
    cwd: ROOT,
    input: text,
    encoding: 'utf8',
  });
  if (!run.stdout) throw new Error(run.stderr);
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

it('refuses a schema of @cbh/contracts and zod in screens and browser libraries', async () => {
  const schema = "import { createContactMethodSchema } from '@cbh/contracts';\nexport const s = createContactMethodSchema;\n";
  expect(await refusals('mfe-users/src/features/account/Form.tsx', schema)).toEqual([expect.stringContaining('zod-free vocabulary')]);
  expect(await refusals('shell/src/app/form.ts', schema)).toHaveLength(1);
  expect(await refusals('libs/ui/src/form.ts', "import { z } from 'zod';\nexport const s = z.string();\n")).toEqual([
    expect.stringContaining('without zod'),
  ]);
});

it('lets screens use the vocabulary and the schemas’ types, and the API and tests use the schemas', async () => {
  expect(
    await refusals(
      'mfe-users/src/features/account/Form.tsx',
      "import { CONTACT_METHOD_TYPES } from '@cbh/contracts';\nexport const t = CONTACT_METHOD_TYPES;\n",
    ),
  ).toEqual([]);
  expect(
    await refusals(
      'libs/api-client/src/x.ts',
      "import type { z } from 'zod';\nimport type { createBreakerSchema } from '@cbh/contracts';\nexport type B = z.input<typeof createBreakerSchema>;\n",
    ),
  ).toEqual([]);
  const schema = "import { createContactMethodSchema } from '@cbh/contracts';\nexport const s = createContactMethodSchema;\n";
  expect(await refusals('api/src/on-call/contact.ts', schema)).toEqual([]);
  expect(await refusals('mfe-users/src/features/account/Form.spec.tsx', schema)).toEqual([]);
});
