import { readFileSync } from 'node:fs';
import path from 'node:path';
import { transformSync } from '@swc/core';
import * as library from './index';

/** The README's example, run as it is written: its import served by this library, its console.log collected. */
describe('the README', () => {
  it('has an example that runs and prints what its comments say', () => {
    const readme = readFileSync(path.join(__dirname, '../README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    const { code } = transformSync(example, { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } });
    const printed: unknown[] = [];
    const modules: Record<string, unknown> = { '@cbh/slo-interchange': library };
    const run = new Function('require', 'exports', 'console', code);
    run((name: string) => modules[name], {}, { log: (value: unknown) => printed.push(value) });

    expect(printed).toHaveLength(2);
    expect(printed[0]).toBe(true);
    expect(printed[1]).toEqual(expect.stringContaining('record: slo:sli_error:ratio_rate5m'));
    expect(printed[1]).toEqual(expect.stringContaining('alert: SloErrorBudgetBurnPage'));
  });
});
