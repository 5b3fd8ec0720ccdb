import { COMPONENT_STATE_LABELS, COMPONENT_STATES, type ComponentState } from '@cbh/contracts';
import { validateXML } from 'xmllint-wasm';
import { contrast, STATE_COLOURS } from './page-styles';
import { renderStateBadge, renderUptimeBadge } from './render-badge';

/** Well-formed XML (xmllint parses it; `format` needs no schema). */
async function wellFormed(svg: string) {
  const result = await validateXML({ xml: { fileName: 'badge.svg', contents: svg }, normalization: 'format' });
  return result.valid && result.errors.length === 0;
}

const textsOf = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]);

describe('badges', () => {
  it.each(COMPONENT_STATES)('renders the %s state as a valid SVG with its words and colour', async (state) => {
    const svg = renderStateBadge('Payments', state);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* role="img" aria-label="Payments: [^"]+">/);
    expect(svg).toContain(`<title>Payments: ${COMPONENT_STATE_LABELS[state]}</title>`);
    expect(textsOf(svg)).toContain(COMPONENT_STATE_LABELS[state]);
    expect(svg).toContain(`fill="${STATE_COLOURS[state].bar}"`);
    expect(await wellFormed(svg)).toBe(true);
  });

  it('refuses an unknown state', () => {
    expect(() => renderStateBadge('x', 'sideways' as ComponentState)).toThrow(RangeError);
  });

  it.each([
    [0.99951, '99.95%'],
    [1, '100%'],
    [0.99999, '99.99%'],
    [0.999, '99.9%'],
    [0.9995, '99.95%'],
    [0.5, '50%'],
    [0, '0%'],
    [null, 'no data'],
    [Number.NaN, 'no data'],
  ])('renders an uptime of %p as %s', async (uptime, text) => {
    const svg = renderUptimeBadge('uptime', uptime);
    expect(textsOf(svg)).toContain(text);
    expect(svg).toContain(`<title>uptime: ${text}</title>`);
    expect(await wellFormed(svg)).toBe(true);
  });

  it('colours the uptime from green to red', () => {
    const fill = (uptime: number) => /<rect x="\d+" width="\d+" height="20" fill="(#[0-9a-f]{6})"/.exec(renderUptimeBadge('u', uptime))![1];
    expect(fill(0.9995)).toBe(STATE_COLOURS.operational.bar);
    expect(fill(0.8)).toBe(STATE_COLOURS.major_outage.bar);
    expect(new Set([0.9995, 0.995, 0.96, 0.92, 0.5].map(fill)).size).toBe(5);
  });

  it('escapes the label', async () => {
    const svg = renderStateBadge('A <b> & "c"', 'major_outage');
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('A &lt;b&gt; &amp; &quot;c&quot;');
    expect(await wellFormed(svg)).toBe(true);
    expect(await wellFormed(renderUptimeBadge('<script>alert(1)</script>', 0.5))).toBe(true);
  });

  it('keeps its white text readable on every colour', () => {
    for (const state of COMPONENT_STATES) expect(contrast('#ffffff', STATE_COLOURS[state].bar)).toBeGreaterThanOrEqual(4.5);
    const fills = [0.9995, 0.995, 0.96, 0.92, 0.5].map(
      (uptime) => /<rect x="\d+" width="\d+" height="20" fill="(#[0-9a-f]{6})"/.exec(renderUptimeBadge('u', uptime))![1]!,
    );
    for (const fill of fills) expect(contrast('#ffffff', fill)).toBeGreaterThanOrEqual(4.5);
  });

  it('a malformed SVG is caught by the check', async () => {
    expect(await wellFormed('<svg xmlns="http://www.w3.org/2000/svg"><text>a & b</text></svg>')).toBe(false);
  });
});
