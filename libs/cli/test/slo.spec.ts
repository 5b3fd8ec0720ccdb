import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import type { BreakerConfigView, CreateSlo, SloView } from '@cbh/contracts';
import { apiForThisFile } from '../../../api/test/test-api';
import { promtool } from '../../slo-interchange/src/promtool.test-kit';
import { cliForThisFile } from './cli-api.test-kit';

/**
 * `cbh slo …` and `cbh apply` of OpenSLO files as a CI job runs them: the built bundle in a child process, against the
 * real API on PostgreSQL, with a token made through the API.
 */
const spec = apiForThisFile();
const { work, cbh, createToken } = cliForThisFile(spec);

async function slos(): Promise<SloView[]> {
  const response = await spec.api.call('/api/slos', { cookie: spec.admin });
  expect(response.status).toBe(200);
  return response.json();
}

async function createSlo(body: CreateSlo): Promise<SloView> {
  const response = await spec.api.call('/api/slos', { method: 'POST', cookie: spec.admin, body });
  expect({ status: response.status, body: await response.clone().text() }).toEqual({ status: 201, body: expect.any(String) });
  return response.json();
}

async function deleteEverySlo() {
  for (const slo of await slos())
    expect((await spec.api.call(`/api/slos/${slo.id}`, { method: 'DELETE', cookie: spec.admin })).status).toBe(204);
}

const file = (name: string) => path.join(work, name);

/** An OpenSLO document as the tests read and edit it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = Record<string, any>;

describe('cbh slo export and cbh apply of OpenSLO', () => {
  let gateway: BreakerConfigView;

  beforeAll(async () => {
    const breakers: BreakerConfigView[] = await (await spec.api.call('/api/circuit-breakers', { cookie: spec.admin })).json();
    gateway = breakers.find((breaker) => breaker.name === 'Payment Gateway')!;
    await createSlo({
      name: 'Payments answer',
      description: 'Calls through the gateway succeed.\nRefused calls count as bad.',
      target: 99.9,
      window: '30d',
      indicator: { kind: 'breaker-calls', breakers: [gateway.id] },
    });
    await createSlo({
      name: 'Checkout speed',
      target: 99,
      window: '7d',
      indicator: { kind: 'breaker-latency', service: 'checkout', thresholdMs: 500 },
    });
    await createSlo({
      name: 'Dashboard loads',
      target: 99.95,
      window: '28d',
      indicator: { kind: 'remote-loads', remote: 'mfe_dashboard' },
    });
  });

  it('round-trips: export --openslo, delete, apply the file, export again → the same bytes; diff then finds nothing', async () => {
    const exported = await cbh(['slo', 'export', '--openslo', '-o', 'slos.yaml']);
    expect(exported).toEqual({ code: 0, stdout: '', stderr: 'Wrote 3 SLOs to slos.yaml\n' });
    const text = readFileSync(file('slos.yaml'), 'utf8');
    expect(
      parseAllDocuments(text).map((document) => (document.toJS() as { metadata: { displayName: string } }).metadata.displayName),
    ).toEqual(['Checkout speed', 'Dashboard loads', 'Payments answer']);
    expect((await cbh(['slo', 'export', '--openslo'])).stdout).toBe(text);

    await deleteEverySlo();
    const applied = await cbh(['apply', 'slos.yaml']);
    expect(applied).toEqual({
      code: 0,
      stdout: '+ slo Checkout speed\n+ slo Dashboard loads\n+ slo Payments answer\nApplied 3 changes: 3 created\n',
      stderr: expect.any(String),
    });
    expect((await cbh(['slo', 'export', '--openslo'])).stdout).toBe(text);
    expect(await cbh(['diff', 'slos.yaml'])).toEqual({
      code: 0,
      stdout: 'No changes: the hub already matches the document (3 unchanged)\n',
      stderr: expect.any(String),
    });
  });

  it('diffs (exit 2) and applies what the file changes, by name, and --prune deletes what the file lacks', async () => {
    const documents = parseAllDocuments(readFileSync(file('slos.yaml'), 'utf8')).map((document) => document.toJS() as Doc);
    documents[0]!.metadata.displayName = 'CHECKOUT speed';
    documents[0]!.spec.objectives = [{ targetPercent: 99.5 }];
    delete documents[2]!.spec.description;
    writeFileSync(file('edited.yaml'), documents.map((document) => stringify(document)).join('---\n'));

    expect(await cbh(['diff', 'edited.yaml'])).toEqual({
      code: 2,
      stdout: '~ slo CHECKOUT speed: name, target\n~ slo Payments answer: description\n2 changes: 2 to update (1 unchanged)\n',
      stderr: expect.any(String),
    });
    expect((await cbh(['apply', 'edited.yaml'])).stdout).toBe(
      '~ slo CHECKOUT speed: name, target\n~ slo Payments answer: description\nApplied 2 changes: 2 updated (1 unchanged)\n',
    );
    const after = await slos();
    expect(after.map(({ name, target, description }) => ({ name, target: Number(target), description }))).toEqual([
      { name: 'CHECKOUT speed', target: 99.5, description: null },
      { name: 'Dashboard loads', target: 99.95, description: null },
      { name: 'Payments answer', target: 99.9, description: null },
    ]);

    writeFileSync(file('one.yaml'), stringify(documents[1]));
    expect((await cbh(['apply', '--prune', 'one.yaml'])).stdout).toBe(
      '- slo CHECKOUT speed\n- slo Payments answer\nApplied 2 changes: 2 deleted (1 unchanged)\n',
    );
    expect((await slos()).map((slo) => slo.name)).toEqual(['Dashboard loads']);
    await cbh(['apply', 'slos.yaml']);
  });

  it("exports the hub's JSON as it is", async () => {
    const exported = await cbh(['slo', 'export']);
    expect(exported.code).toBe(0);
    expect((JSON.parse(exported.stdout) as SloView[]).map((slo) => slo.name)).toEqual([
      'Checkout speed',
      'Dashboard loads',
      'Payments answer',
    ]);
  });

  it('refuses a file that is not OpenSLO the hub can take, pointing into it, and sends nothing', async () => {
    const document = parse(readFileSync(file('slos.yaml'), 'utf8').split('---\n')[0]!) as Doc;
    document.metadata.displayName = 'From Prometheus';
    document.spec.indicator.spec.ratioMetric.good.metricSource = { type: 'Prometheus', spec: { query: 'up' } };
    writeFileSync(file('foreign.yaml'), stringify(document));
    const lines = readFileSync(file('foreign.yaml'), 'utf8').split('\n');
    const line = lines.findIndex((row) => row.endsWith('type: Prometheus'));
    const run = await cbh(['apply', 'foreign.yaml']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `Applying the SLOs of foreign.yaml to ${spec.api.baseUrl}…\n` +
        'cbh: foreign.yaml is not an OpenSLO file the hub can take; nothing was sent:\n' +
        `foreign.yaml:${line + 1}:${lines[line]!.indexOf('Prometheus') + 1}: document 1: spec.indicator.spec.ratioMetric.good.metricSource.type: is Prometheus: only the hub's own indicators can be imported: a metric source of type cbh, as \`cbh slo export --openslo\` writes it\n`,
    );
    expect((await slos()).map((slo) => slo.name)).not.toContain('From Prometheus');
  });

  it("stops at the hub's refusal, saying which SLO of the file and what was applied before it", async () => {
    const [first, second] = parseAllDocuments(readFileSync(file('slos.yaml'), 'utf8')).map((document) => document.toJS() as Doc);
    first!.metadata.displayName = 'A new one';
    second!.metadata.displayName = 'Unknown breaker';
    second!.spec.indicator.spec.ratioMetric.good.metricSource.spec = { kind: 'breaker-calls', breakers: [999_999], events: 'good' };
    second!.spec.indicator.spec.ratioMetric.total.metricSource.spec = { kind: 'breaker-calls', breakers: [999_999], events: 'total' };
    writeFileSync(file('refused.yaml'), `${stringify(first)}---\n${stringify(second)}`);
    const line = readFileSync(file('refused.yaml'), 'utf8').split('\n').indexOf('---') + 2;
    const run = await cbh(['apply', 'refused.yaml']);
    expect(run).toEqual({
      code: 1,
      stdout: '+ slo A new one\n',
      stderr:
        `Applying the SLOs of refused.yaml to ${spec.api.baseUrl}…\n` +
        `cbh: refused.yaml:${line}: slo Unknown breaker: The hub refused POST /api/slos (422): indicator.breakers: no breaker with id 999999\n` +
        'The 1 change before it was applied.\n',
    });
    const made = (await slos()).find((slo) => slo.name === 'A new one')!;
    await spec.api.call(`/api/slos/${made.id}`, { method: 'DELETE', cookie: spec.admin });
  });

  it('needs circuit_breaker_admin to apply', async () => {
    const reader = (await createToken(['circuit_breaker_view'])).token;
    writeFileSync(file('new.yaml'), toOneNew());
    const run = await cbh(['apply', 'new.yaml'], { CBH_TOKEN: reader });
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `Applying the SLOs of new.yaml to ${spec.api.baseUrl}…\n` +
        'cbh: new.yaml:1: slo Brand new: Not allowed (403): Requires the circuit_breaker_admin permission; the token, or the account it belongs to, lacks it\n' +
        'Nothing was applied.\n',
    });
  });
});

/** An OpenSLO file of one SLO the hub lacks. */
function toOneNew(): string {
  const text = readFileSync(file('slos.yaml'), 'utf8').split('---\n')[1]!;
  return text.replace('displayName: Dashboard loads', 'displayName: Brand new');
}

describe('cbh slo rules', () => {
  it("prints an SLO's Prometheus rules by name or id, with its breakers named as /metrics names them", async () => {
    const payments = (await slos()).find((slo) => slo.name === 'Payments answer')!;
    const byName = await cbh(['slo', 'rules', 'payments ANSWER']);
    expect(byName.code).toBe(0);
    expect(byName.stdout).toContain('name=~"Payment Gateway",service=""');
    expect((await cbh(['slo', 'rules', String(payments.id)])).stdout).toBe(byName.stdout);
    const checked = promtool(['check', 'rules', 'rules.yml'], { 'rules.yml': byName.stdout });
    expect(checked).toEqual({ status: 0, output: expect.stringContaining('SUCCESS: 17 rules found') });
  });

  it('says when an SLO cannot be written as rules, or is not there', async () => {
    expect(await cbh(['slo', 'rules', 'Dashboard loads'])).toEqual({
      code: 1,
      stdout: '',
      stderr: "cbh: SLO Dashboard loads: remote-loads cannot be read from the hub's /metrics: it has no series of the remotes' loads\n",
    });
    expect((await cbh(['slo', 'rules', 'nope'])).stderr).toBe('cbh: No SLO named "nope" on the hub (cbh slo export lists them)\n');
    expect((await cbh(['slo', 'rules', '424242'])).stderr).toBe('cbh: No SLO with id 424242 on the hub\n');
  });
});
