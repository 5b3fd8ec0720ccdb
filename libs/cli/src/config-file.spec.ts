import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
