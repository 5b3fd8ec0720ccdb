import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigFile } from './config-file';
import { breakerNames, checkDrill, explainRefusal, pickDrill, readDrillFile } from './drill-file';

const dir = mkdtempSync(path.join(tmpdir(), 'cbh-drill-file-'));
function write(name: string, text: string): string {
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
}
const messageOf = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

const ONE = `name: db-failover
steps:
  - breaker: { service: checkout, name: payments }
    fault: { kind: error, rate: 1.5 }
    instances: all
    durationSeconds: 10
    colour: red
expectations:
  - breaker: 12
    state: OPEN
    after: start
`;

describe('the file of cbh drill run', () => {
  it('reads the example drill as the hub would take it', () => {
    const { drill, prefix } = readDrillFile(path.join(__dirname, '../examples/drill.yaml'));
    expect(prefix).toBe('');
    expect(drill.name).toBe('payments-slow-database');
    expect(drill.steps[0]).toMatchObject({ breaker: { service: 'checkout', name: 'payments' }, fault: { kind: 'timeout' } });
  });

  it('places every problem at its line and column, worded as the hub words them, before anything is sent', () => {
    const file = write('bad.yaml', ONE);
    expect(messageOf(() => readDrillFile(file))).toBe(
      [
        `${file} is not a drill the hub can run; nothing was sent:`,
        `${file}:4:33: steps[0].fault.rate: must be at most 1`,
        `${file}:7:13: steps[0]: unknown field colour`,
        `${file}:9:5: expectations[0].withinSeconds: is required`,
      ].join('\n'),
    );
    const json = write('bad.json', JSON.stringify({ name: '', steps: [] }, null, 2));
    expect(messageOf(() => readDrillFile(json))).toBe(
      [
        `${json} is not a drill the hub can run; nothing was sent:`,
        `${json}:2:11: name: must not be empty`,
        `${json}:3:12: steps: name at least one step`,
      ].join('\n'),
    );
    expect(messageOf(() => readDrillFile(write('drill.txt', ONE)))).toMatch(/name the file \.yaml, \.yml or \.json/);
  });

  it('picks a drill of a drills: list by --name, the only one without it, and places problems within the list', () => {
    const steps = 'steps: [{ breaker: 1, fault: { kind: error, rate: 0.1 }, instances: all, durationSeconds: 5 }]';
    const good = `  - name: calm\n    ${steps}\n`;
    const file = write('drills.yaml', `drills:\n${good}${ONE.replace(/^/gm, '    ').replace(/^ {4}name/, '  - name')}`);
    expect(readDrillFile(file, 'calm')).toMatchObject({ prefix: 'drills[0].', drill: { name: 'calm' } });
    expect(messageOf(() => readDrillFile(file))).toBe(`${file} lists 2 drills: pick one with --name ("calm", "db-failover")`);
    expect(messageOf(() => readDrillFile(file, 'nope'))).toBe(
      `${file} has no drill named "nope" in its drills: list ("calm", "db-failover")`,
    );
    expect(messageOf(() => readDrillFile(file, 'db-failover'))).toContain(`${file}:7:37: drills[1].steps[0].fault.rate: must be at most 1`);
    expect(readDrillFile(write('one.yaml', `drills:\n${good}`))).toMatchObject({ prefix: 'drills[0].' });
    expect(messageOf(() => readDrillFile(write('single.yaml', `name: calm\n${steps}\n`), 'other'))).toMatch(
      /holds one drill, "calm", not "other"/,
    );
  });

  it('takes the hub’s own breakers by name, as the configuration document’s drills: name them, once looked up', () => {
    const file = write(
      'hub.yaml',
      `version: 1
breakers: []
drills:
  - name: gateway
    steps:
      - { breaker: Payment Gateway, fault: { kind: error, rate: 0.5 }, instances: all, durationSeconds: 5 }
    expectations:
      - { breaker: payment gateway, state: OPEN, withinSeconds: 5, after: start }
      - { breaker: Search API, state: OPEN, withinSeconds: 5, after: start }
`,
    );
    const picked = pickDrill(file);
    expect(breakerNames(picked)).toEqual(['Payment Gateway', 'payment gateway', 'Search API']);
    const ids = new Map([
      ['payment gateway', 3],
      ['search api', 4],
    ]);
    expect(checkDrill(picked, ids).drill).toMatchObject({ steps: [{ breaker: 3 }], expectations: [{ breaker: 3 }, { breaker: 4 }] });
    expect(messageOf(() => checkDrill(picked, new Map([['payment gateway', 3]])))).toBe(
      `${file} is not a drill the hub can run; nothing was sent:\n${file}:9:20: drills[0].expectations[1].breaker: the hub has no breaker of its own named Search API`,
    );
  });

  it('places the hub’s refusal of the drill in the file, whether it writes places with brackets or dots', () => {
    const file = write('drills2.yaml', `drills:\n  - name: a\n    steps:\n      - breaker: { service: checkout, name: nope }\n`);
    const drillFile = { file: ConfigFile.read(file), prefix: 'drills[0].', drill: { name: 'a', steps: [] } };
    expect(explainRefusal(drillFile, 'steps[0].breaker: no breaker nope of the service checkout; steps.0.fault: is required')).toBe(
      [
        `${file}:4:18: drills[0].steps[0].breaker: no breaker nope of the service checkout`,
        `${file}:4:9: drills[0].steps[0].fault: is required`,
      ].join('\n'),
    );
  });
});
