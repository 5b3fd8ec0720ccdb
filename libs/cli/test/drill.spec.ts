import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import type { AgentReport, CreatedApiTokenView, DrillView } from '@cbh/contracts';
import { agentBreaker, agentReport, sendAgentReport, serviceToken } from '../../../api/test/agent-reports';
import { eventually, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../api/test/test-api';
import { freePort } from '../../../tools/testing/free-port.mjs';
import { buildCli, runCli, startCli, type RunningCli } from './cli.test-kit';

/**
 * `cbh drill run` as a CI job runs it: the built bundle in a child process, against the real API on PostgreSQL, with
 * an admin's access token. The drills' breakers are an agent's, registered and moved by posting its reports with a
 * service account's token, as a running agent would.
 */
const work = mkdtempSync(path.join(tmpdir(), 'cbh-drill-cli-'));
const bundle = path.join(work, 'dist/cbh.js');
const BREAKERS = ['payments', 'ledger', 'search', 'inventory'];

let api: TestApi;
let admin: string;
let token: string;
let agentToken: string;

const json = async <T>(response: Promise<Response>): Promise<T> => (await (await response).json()) as T;
const post = (path: string, body?: unknown) => api.call(path, { method: 'POST', cookie: admin, body });

/** A report of checkout's instance i-1: every breaker closed but `breaker`, when given; the hub's reply. */
async function report(fields: Partial<AgentReport> = {}, breaker?: ReturnType<typeof agentBreaker>) {
  const breakers = BREAKERS.map((name) => (name === breaker?.name ? breaker : agentBreaker(name)));
  const response = await sendAgentReport(api.baseUrl, agentToken, { ...agentReport('checkout', 'i-1', breakers), ...fields });
  expect(response.status).toBe(200);
  return response.json();
}

beforeAll(async () => {
  buildCli(path.dirname(bundle));
  api = await startTestApi();
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  token = (await json<CreatedApiTokenView>(post('/api/tokens', { name: 'ci', expiresInDays: 7 }))).token;
  agentToken = await serviceToken(api, admin, 'checkout');
  await report();
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

/** A drill of one step of errors on checkout's `breaker`, expecting it OPEN within `within` s of the start, as a file. */
function drillFile(file: string, breaker: string, { seconds, within }: { seconds: number; within: number }) {
  writeFileSync(
    path.join(work, file),
    stringify({
      name: `${breaker}-opens`,
      steps: [
        {
          breaker: { service: 'checkout', name: breaker },
          fault: { kind: 'error', rate: 0.5 },
          instances: 'all',
          durationSeconds: seconds,
        },
      ],
      expectations: [{ breaker: { service: 'checkout', name: breaker }, state: 'OPEN', withinSeconds: within, after: 'start' }],
    }),
  );
  return file;
}

const cbh = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(bundle, work, args, { CBH_URL: api.baseUrl, CBH_TOKEN: token, ...env });
const startCbh = (args: string[]) => startCli(bundle, work, args, { CBH_URL: api.baseUrl, CBH_TOKEN: token });

/** The id of the drill a running `cbh drill run` started, once it has printed it. */
async function drillIdOf(cli: RunningCli): Promise<number> {
  const printed = () => /^Drill (\d+) ".*" started/m.exec(cli.output().stdout)?.[1];
  if (!(await eventually(async () => printed() !== undefined, 20_000))) throw new Error(`no drill started:\n${cli.output().stderr}`);
  return Number(printed());
}

const drills = () => json<DrillView[]>(api.call('/api/drills', { cookie: admin }));

describe('cbh drill run', () => {
  it('--wait prints the timeline as it grows and exits 0 once the breaker opened in time', async () => {
    const cli = startCbh(['drill', 'run', drillFile('met.yaml', 'payments', { seconds: 3, within: 30 }), '--wait']);
    const id = await drillIdOf(cli);
    // the agent takes the fault from the reply to its report, and its breaker opens
    const reply = await report({ faults: { allowed: true, active: [] } });
    expect(reply.faults).toEqual([expect.objectContaining({ id: `drill-${id}-0`, breaker: 'payments' })]);
    const opened = agentBreaker(
      'payments',
      { failures: 10 },
      { state: 'OPEN', transitions: [{ from: 'CLOSED', to: 'OPEN', at: new Date().toISOString(), reason: 'InjectedFault: 50 % failed' }] },
    );
    await report({ faults: { allowed: true, active: [`drill-${id}-0`] } }, opened);

    const run = await cli.done;
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: `Following drill ${id} until its verdict is final…\n` });
    const lines = run.stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      expect.stringMatching(new RegExp(`^Drill ${id} "payments-opens" started, until \\d\\d:\\d\\d:\\d\\dZ$`)),
      expect.stringMatching(/^Step 1 of 1, \d\d:\d\d:\d\dZ for 3 s: errors on 50 % of calls of payments \(checkout\), all instances$/),
      "Expectation 1: payments (checkout) OPEN within 30 s of the drill's start",
      `${api.baseUrl}/drills/${id}`,
    ]);
    // each entry once, as it appeared: time, kind, text
    const entries = lines.filter((line) => /^\d\d:\d\d:\d\dZ {2}/.test(line));
    for (const kind of ['started', 'step_started', 'fault_sent', 'fault_applied', 'transition', 'expectation_met']) {
      expect(entries.filter((line) => line.split(/ +/)[1] === kind)).toHaveLength(1);
    }
    expect(entries.find((line) => line.includes(' transition '))).toMatch(/payments \(checkout\) CLOSED → OPEN on i-1: InjectedFault/);
    expect(run.stdout).toContain(`Drill ${id} "payments-opens": met, its expectation held`);
  }, 60_000);

  it('--wait exits 1 with the whole timeline and why, when the breaker did not open in time', async () => {
    const run = await cbh(['drill', 'run', drillFile('missed.yaml', 'ledger', { seconds: 1, within: 1 }), '--wait']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 1, stderr: expect.stringMatching(/^Following drill \d+/) });
    const verdict = run.stdout.slice(run.stdout.indexOf('": missed'));
    expect(verdict).toMatch(
      /^": missed, 0 of 1 expectation held\nTimeline:\n {2}\d\d:\d\d:\d\dZ {2}started {13}Drill "ledger-opens" started/,
    );
    expect(verdict).toMatch(/^ {2}\d\d:\d\d:\d\dZ {2}expectation_missed {2}Expectation 1 missed: ledger \(checkout\) OPEN within 1 s/m);
    expect(verdict).toContain(
      "Expectation 1 missed: ledger (checkout) OPEN within 1 s of the drill's start: it never moved; no instance of checkout reported while its fault was on (is its agent running?)",
    );
  }, 60_000);

  it('without --wait prints the drill, its blast radius and its page, and leaves it running', async () => {
    const run = await cbh(['drill', 'run', drillFile('start.yaml', 'search', { seconds: 600, within: 5 })]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const id = Number(/^Drill (\d+) "search-opens" started/.exec(run.stdout)?.[1]);
    expect(run.stdout).toContain('for 600 s: errors on 50 % of calls of search (checkout), all instances\n');
    expect(run.stdout.trimEnd().split('\n').at(-1)).toBe(`${api.baseUrl}/drills/${id}`);
    expect((await drills()).find((drill) => drill.id === id)).toMatchObject({ state: 'running' });
    expect((await post(`/api/drills/${id}/stop`)).status).toBe(200);
  });

  it('runs the drill --name picks of a file’s drills: list, the hub’s own breakers named by name', async () => {
    const step = { fault: { kind: 'latency', rate: 0.1, latencyMs: 50 }, instances: 'all', durationSeconds: 600 };
    writeFileSync(
      path.join(work, 'drills.yaml'),
      stringify({
        drills: [
          { name: 'other', steps: [{ ...step, breaker: { service: 'checkout', name: 'nope' } }] },
          { name: 'gateway', steps: [{ ...step, breaker: 'payment gateway' }] },
        ],
      }),
    );
    const run = await cbh(['drill', 'run', 'drills.yaml', '--name', 'gateway']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/for 600 s: latency 50 ms on 10 % of calls of Payment Gateway, the hub's own breaker, on every replica\n/);
    const id = Number(/^Drill (\d+) "gateway" started/.exec(run.stdout)?.[1]);
    expect((await post(`/api/drills/${id}/stop`)).status).toBe(200);
  });

  it('stops the drill on Ctrl-C while waiting, and exits 130', async () => {
    const cli = startCbh(['drill', 'run', drillFile('long.yaml', 'inventory', { seconds: 600, within: 600 }), '--wait']);
    const id = await drillIdOf(cli);
    cli.child.kill('SIGINT');
    const run = await cli.done;
    expect(run.code).toBe(130);
    expect(run.stderr).toContain(`Stopped drill ${id}: every fault is removed at its instances' next report`);
    expect((await drills()).find((drill) => drill.id === id)).toMatchObject({ state: 'stopped' });
  }, 60_000);

  it('exits 2 for a file the hub would refuse, a breaker it lacks, an unreachable hub and bad arguments, sending nothing', async () => {
    const before = (await drills()).length;
    writeFileSync(
      path.join(work, 'bad.yaml'),
      'name: too-long\nsteps:\n  - breaker: 1\n    fault: { kind: error, rate: 0.5 }\n    instances: all\n    durationSeconds: 901\n',
    );
    const bad = await cbh(['drill', 'run', 'bad.yaml', '--wait']);
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'cbh: bad.yaml is not a drill the hub can run; nothing was sent:\nbad.yaml:6:22: steps[0].durationSeconds: must be at most 900\n',
    });

    const unknown = await cbh(['drill', 'run', drillFile('nope.yaml', 'nope', { seconds: 5, within: 5 })]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^cbh: The hub refused nope\.yaml \(422\):\nnope\.yaml:4:7: steps\[0\]\.breaker: no breaker nope of the service checkout\n$/,
    );

    const unreachable = await cbh(['drill', 'run', drillFile('down.yaml', 'payments', { seconds: 5, within: 5 }), '--wait'], {
      CBH_URL: `http://127.0.0.1:${await freePort()}`,
    });
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toMatch(/^cbh: Cannot reach the hub at http:\/\/127\.0\.0\.1:\d+ \(CBH_URL\): the connection was refused/);
    expect((await cbh(['drill', 'run'])).code).toBe(2);
    expect((await cbh(['drill', 'run', 'down.yaml', '--colour'])).code).toBe(2);
    expect((await drills()).length).toBe(before);
  });
});
