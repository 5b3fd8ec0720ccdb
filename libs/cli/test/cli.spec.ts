import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import type { BreakerConfigView, ConfigDocument } from '@cbh/contracts';
import { apiForThisFile } from '../../../api/test/test-api';
import { freePort } from '../../../tools/testing/free-port.mjs';
import { cliForThisFile, diffLines } from './cli-api.test-kit';
import { ROOT } from './cli.test-kit';

/**
 * `cbh` as a CI job runs it, against the real API on PostgreSQL: configuration as code (export, diff, apply, prune and
 * what each refuses), breakers forced open and reset by name, and the CI example's document.
 */
const spec = apiForThisFile();
const { work, cbh, writeYaml, createToken } = cliForThisFile(spec);

async function breakers(): Promise<BreakerConfigView[]> {
  return (await spec.api.call('/api/circuit-breakers', { cookie: spec.admin })).json();
}

describe('configuration as code', () => {
  it('exports, diffs exactly the edited items (exit 2), applies them, and then diffs to nothing (exit 0)', async () => {
    const exported = await cbh(['export', '--format', 'yaml']);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toBe('');
    const document = parse(exported.stdout) as ConfigDocument;
    expect(document.version).toBe(1);
    expect(document.breakers.map((breaker) => breaker.name)).toEqual(expect.arrayContaining(['Payment Gateway', 'Search API']));
    // JSON by default, the same document
    const json = await cbh(['export']);
    expect(JSON.parse(json.stdout)).toEqual(document);

    const edited = document.breakers.find((breaker) => breaker.name === 'Payment Gateway')!;
    edited.failureThreshold = edited.failureThreshold === 9 ? 8 : 9;
    document.breakers.push({
      name: 'cli-added',
      type: 'simple',
      failureThreshold: 4,
      timeout: 30_000,
      recoveryTime: 60_000,
      successThreshold: 2,
    });
    writeFileSync(path.join(work, 'hub.yaml'), stringify(document));

    const diff = await cbh(['diff', 'hub.yaml']);
    expect(diff.code).toBe(2);
    expect(diffLines(diff).sort()).toEqual(['+ breaker cli-added', '~ breaker Payment Gateway: failureThreshold']);
    expect(diff.stdout).toMatch(/^2 changes: 1 to create, 1 to update \(\d+ unchanged\)$/m);
    // the dry run changed nothing
    expect((await breakers()).map((breaker) => breaker.name)).not.toContain('cli-added');

    const applied = await cbh(['apply', 'hub.yaml']);
    expect(applied.code).toBe(0);
    expect(diffLines(applied).sort()).toEqual(['+ breaker cli-added', '~ breaker Payment Gateway: failureThreshold']);
    expect(applied.stdout).toMatch(/^Applied 2 changes: 1 created, 1 updated \(\d+ unchanged\)$/m);
    // progress goes to stderr (one plain line, stderr not being a terminal), keeping stdout for the changes
    expect(applied.stderr).toBe(
      `Applying hub.yaml (${document.breakers.length + document.services.length + document.domains.length} items) to ${spec.api.baseUrl}…\n`,
    );
    const after = await breakers();
    expect(after.find((breaker) => breaker.name === 'Payment Gateway')!.failureThreshold).toBe(edited.failureThreshold);
    expect(after.find((breaker) => breaker.name === 'cli-added')).toMatchObject({ failureThreshold: 4, successThreshold: 2 });

    const again = await cbh(['diff', 'hub.yaml']);
    expect(again.code).toBe(0);
    expect(diffLines(again)).toEqual([]);
    expect(again.stdout).toMatch(/^No changes: the hub already matches the document \(\d+ unchanged\)$/m);
  });

  it('deletes what the file leaves out only with --prune, and a prune a running load test refuses changes nothing', async () => {
    const document = parse((await cbh(['export', '--format', 'yaml'])).stdout) as ConfigDocument;
    document.breakers = document.breakers.filter((breaker) => breaker.name !== 'cli-added');
    writeFileSync(path.join(work, 'pruned.yaml'), stringify(document));

    expect((await cbh(['diff', 'pruned.yaml'])).code).toBe(0);
    const diff = await cbh(['diff', 'pruned.yaml', '--prune']);
    expect(diff.code).toBe(2);
    expect(diffLines(diff)).toEqual(['- breaker cli-added']);
    expect(diff.stdout).toMatch(/^1 change: 1 to delete \(\d+ unchanged\)$/m);

    const id = (await breakers()).find((breaker) => breaker.name === 'cli-added')!.id;
    const started = await spec.api.call('/api/test-sessions', {
      method: 'POST',
      cookie: spec.admin,
      body: { configId: id, failureRate: 10, requestRate: 1, duration: 1 },
    });
    expect(started.status).toBe(201);
    const refused = await cbh(['apply', 'pruned.yaml', '--prune']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^cbh: The hub refused POST \/api\/import\?prune=true \(409\): .*cli-added.*load test running.*\nNothing was applied: an import changes everything or nothing\.\n$/m,
    );
    expect((await breakers()).map((breaker) => breaker.name)).toContain('cli-added');

    expect(
      (await spec.api.call(`/api/test-sessions/${(await started.json()).id}/stop`, { method: 'POST', cookie: spec.admin })).status,
    ).toBeLessThan(300);
    const applied = await cbh(['apply', 'pruned.yaml', '--prune']);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(/^Applied 1 change: 1 deleted \(\d+ unchanged\)$/m);
    expect((await breakers()).map((breaker) => breaker.name)).not.toContain('cli-added');
  });

  it('refuses a document with one bad item, naming its line and path, and changes nothing (exit 1)', async () => {
    const before = (await cbh(['export'])).stdout;
    const document = JSON.parse(before) as ConfigDocument;
    document.breakers[1]!.failureThreshold = 99;
    document.breakers.push({
      name: 'never-created',
      type: 'simple',
      failureThreshold: 4,
      timeout: 30_000,
      recoveryTime: 60_000,
      successThreshold: 2,
    });
    const { line, column } = writeYaml('bad.yaml', document, 'failureThreshold: 99', '99');

    const refused = await cbh(['apply', 'bad.yaml']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      `cbh: The hub refused bad.yaml:\nbad.yaml:${line}:${column}: breakers[1].failureThreshold: must be at most 20`,
    );
    expect((await cbh(['export'])).stdout).toBe(before);

    // a file that is not even YAML is refused before anything is sent
    writeFileSync(path.join(work, 'broken.yaml'), 'version: 1\nbreakers: [\n');
    const broken = await cbh(['diff', 'broken.yaml']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^cbh: broken\.yaml:\d+:\d+: .+; nothing was sent to the hub\n$/);
  });

  it('says which URL it could not reach, which token was refused and which permission is missing (exit 1)', async () => {
    const port = await freePort();
    const unreachable = await cbh(['export'], { CBH_URL: `http://127.0.0.1:${port}` });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toBe(
      `cbh: Cannot reach the hub at http://127.0.0.1:${port} (CBH_URL): the connection was refused (is the hub running, and is the port right?)\n`,
    );

    const elsewhere = await cbh(['diff', path.join(ROOT, 'examples/ci-config/hub.yaml')], { CBH_URL: `${spec.api.baseUrl}/hub` });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(
      new RegExp(
        `^cbh: ${spec.api.baseUrl}/hub has no POST /api/import\\?dryRun=true \\(404: .*\\): is CBH_URL the hub's address\\?$`,
        'm',
      ),
    );

    // past the hub's 1 MB, refused before it is read
    writeFileSync(path.join(work, 'huge.json'), JSON.stringify({ version: 1, padding: 'x'.repeat(1_100_000) }));
    const huge = await cbh(['diff', 'huge.json']);
    expect(huge.code).toBe(1);
    expect(huge.stderr).toMatch(/^cbh: huge\.json is too large for the hub \(413\): The request body is larger than 1024 KB$/m);

    const revoked = await createToken();
    expect((await spec.api.call(`/api/tokens/${revoked.id}`, { method: 'DELETE', cookie: spec.admin })).status).toBe(204);
    const refused = await cbh(['export'], { CBH_TOKEN: revoked.token });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cbh: The hub refused the token in CBH_TOKEN (401): The access token is not valid\n');

    const viewer = await createToken(['circuit_breaker_view']);
    const forbidden = await cbh(['export'], { CBH_TOKEN: viewer.token });
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toBe(
      'cbh: Not allowed (403): Requires the export_data permission; the token, or the account it belongs to, lacks it\n',
    );

    const unset = await cbh(['export'], { CBH_TOKEN: undefined });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toMatch(/^cbh: CBH_TOKEN is not set/);
  });
});

describe('breakers by name', () => {
  it('forces open the breakers named, and nothing when one name is unknown', async () => {
    const refused = await cbh(['breakers', 'force-open', 'Search API', 'no-such-breaker']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cbh: No breaker named "no-such-breaker" on the hub; nothing was changed\n');
    expect((await breakers()).filter((breaker) => breaker.override !== 'none')).toEqual([]);

    const opened = await cbh(['breakers', 'force-open', 'Search API', 'Inventory Service']);
    expect(opened.code).toBe(0);
    expect(opened.stdout).toBe('✓ Search API\n✓ Inventory Service\n2 breakers forced open\n');
    const byName = new Map((await breakers()).map((breaker) => [breaker.name, breaker]));
    for (const name of ['Search API', 'Inventory Service'])
      expect(byName.get(name)).toMatchObject({ state: 'OPEN', override: 'forced-open' });
    expect(byName.get('Payment Gateway')).toMatchObject({ override: 'none' });

    // names are matched whatever their letter case, as the hub keeps them unique
    const reset = await cbh(['breakers', 'reset', 'search api']);
    expect(reset.stdout).toBe('✓ Search API\n1 breaker reset\n');
    expect((await breakers()).find((breaker) => breaker.name === 'Search API')).toMatchObject({ state: 'CLOSED', override: 'none' });
  });
});

describe('the CI example', () => {
  it('is a document the hub takes: its diff against a fresh hub lists its items to create (exit 2)', async () => {
    const diff = await cbh(['diff', path.join(ROOT, 'examples/ci-config/hub.yaml')]);
    expect(diff.stderr).not.toContain('cbh:');
    expect(diff.code).toBe(2);
    expect(diffLines(diff)).toEqual(
      expect.arrayContaining(['+ breaker checkout-api', '+ service Checkout', '+ domain shop.example.com', '+ domain status.example.com']),
    );
  });
});
