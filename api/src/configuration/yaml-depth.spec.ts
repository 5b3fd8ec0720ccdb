import { Lexer, stringify } from 'yaml';
import { MAX_YAML_DEPTH, yamlDepthExceeds } from './yaml-depth';

const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);

it('takes a document as deep as an export goes, in block and in flow style', () => {
  const document = {
    version: 1,
    breakers: [{ name: 'Payments', type: 'simple', failureThreshold: 5 }],
    notificationRules: [{ name: 'Pager', events: ['breaker.opened'], channels: ['Ops'], breakers: [] }],
    statusPages: [{ slug: 'shop', components: [{ name: 'Checkout', breakers: ['Payments'] }] }],
  };
  expect(yamlDepthExceeds(stringify(document))).toBe(false);
  expect(yamlDepthExceeds(JSON.stringify(document, null, 2))).toBe(false);
  expect(yamlDepthExceeds(stringify({ list: nested(20) }))).toBe(false);
});

it('refuses brackets, sequence indicators or indentation past the limit', () => {
  expect(yamlDepthExceeds(`${'['.repeat(MAX_YAML_DEPTH)}${']'.repeat(MAX_YAML_DEPTH)}`)).toBe(false);
  expect(yamlDepthExceeds(`${'['.repeat(MAX_YAML_DEPTH + 1)}${']'.repeat(MAX_YAML_DEPTH + 1)}`)).toBe(true);
  // maps and sequences in flow style, each under the limit, together over it
  expect(yamlDepthExceeds(`a: ${'{b: '.repeat(40)}${'['.repeat(30)}1${']'.repeat(30)}${'}'.repeat(40)}`)).toBe(true);
  expect(yamlDepthExceeds(`${'- '.repeat(MAX_YAML_DEPTH)}1`)).toBe(true);
  expect(yamlDepthExceeds(stringify({ list: nested(100) }))).toBe(true);
  expect(yamlDepthExceeds(`a:\n${' '.repeat(MAX_YAML_DEPTH)}b: 1\n`)).toBe(true);
  // a flow collection over several lines keeps the depth of the line it opened on
  expect(yamlDepthExceeds(`a: [\n${'['.repeat(60)}\n${']'.repeat(60)}]\n`)).toBe(false);
  expect(yamlDepthExceeds(`a: [\n${'['.repeat(70)}\n${']'.repeat(70)}]\n`)).toBe(true);
});

it('counts what YAML reads as structure, not brackets inside a scalar or a comment', () => {
  const deepText = '['.repeat(500);
  expect(yamlDepthExceeds(`name: "${deepText}"\nother: '${deepText}'\n# ${deepText}\nplain: x ${deepText}\n`)).toBe(false);
  // and a quote inside a plain scalar does not hide the structure after it
  expect(yamlDepthExceeds(`a: it's\nb: ${'['.repeat(100)}${']'.repeat(100)}\n`)).toBe(true);
});

it('gives up on a deep document at the limit, without reading the rest', () => {
  const lex = Lexer.prototype.lex;
  let tokens = 0;
  const spy = jest.spyOn(Lexer.prototype, 'lex').mockImplementation(function* (this: Lexer, source: string, incomplete?: boolean) {
    for (const token of lex.call(this, source, incomplete)) {
      tokens += 1;
      yield token;
    }
  });
  try {
    const megabyte = 512 * 1024;
    expect(yamlDepthExceeds(`${'['.repeat(megabyte)}${']'.repeat(megabyte)}`)).toBe(true);
    expect(tokens).toBeLessThan(2 * MAX_YAML_DEPTH);
  } finally {
    spy.mockRestore();
  }
});
