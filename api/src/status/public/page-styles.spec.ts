import { COMPONENT_STATES } from '@cbh/contracts';
import {
  accentColours,
  contrast,
  escapeText,
  formatUptime,
  MUTED_TEXT,
  NO_DATA_BAR,
  PAGE_TEXT,
  readableTime,
  STATE_COLOURS,
  timeElement,
} from './page-styles';

describe('page styles', () => {
  it('computes WCAG contrast ratios', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#ffffff')).toBe(1);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it.each(COMPONENT_STATES)('gives the %s state readable text (≥ 4.5) and a visible bar (≥ 3 on white)', (state) => {
    const colours = STATE_COLOURS[state];
    expect(contrast(colours.fg, colours.bg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colours.fg, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colours.bar, '#ffffff')).toBeGreaterThanOrEqual(3);
  });

  it('keeps the page text, the muted text, the notices and the no-data bar readable', () => {
    expect(contrast(PAGE_TEXT, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(MUTED_TEXT, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#3b2300', '#fff8c5')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(NO_DATA_BAR, '#ffffff')).toBeGreaterThanOrEqual(2.5);
  });

  it.each(['#0b6bcb', '#ffffff', '#000000', '#ffeb3b', '#777777', '#7f7f7f', '#00ff00', '#ff0000', '#1e90ff', '#ABCDEF'])(
    'makes any accent readable: %s',
    (accent) => {
      const colours = accentColours(accent);
      expect(contrast(colours.onHeader, colours.header)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(colours.link, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      // the button's white text on the link colour
      expect(contrast('#ffffff', colours.link)).toBeGreaterThanOrEqual(4.5);
    },
  );

  it('falls back to the default accent for no or a malformed colour', () => {
    expect(accentColours(null).header).toBe('#0b6bcb');
    expect(accentColours('red').header).toBe('#0b6bcb');
    expect(accentColours('#12345g').header).toBe('#0b6bcb');
    expect(accentColours('#7B1FA2')).toEqual({ header: '#7b1fa2', onHeader: '#ffffff', link: '#7b1fa2' });
  });

  it('escapes text for HTML and XML, dropping characters XML forbids', () => {
    expect(escapeText(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(escapeText('a\u0000b\u0008c\td\ne\u000bf\uFFFEg\uD800h\uD83D\uDE00')).toBe('abc\td\nefgh\uD83D\uDE00');
  });

  it('formats uptimes rounded down to two decimals', () => {
    expect(formatUptime(1)).toBe('100%');
    expect(formatUptime(0.99999)).toBe('99.99%');
    expect(formatUptime(0.9995)).toBe('99.95%');
    expect(formatUptime(0.99314, ' ')).toBe('99.31 %');
    expect(formatUptime(0.9)).toBe('90%');
    expect(formatUptime(0)).toBe('0%');
    expect(formatUptime(1.5)).toBe('100%');
  });

  it('reads times as ISO and UTC words, and leaves what is no time as escaped text', () => {
    expect(readableTime('2026-11-28T14:05:09.120Z')).toEqual({ iso: '2026-11-28T14:05:09.120Z', text: '2026-11-28 14:05 UTC' });
    expect(readableTime('2026-11-28T15:05:00+01:00')).toEqual({ iso: '2026-11-28T14:05:00Z', text: '2026-11-28 14:05 UTC' });
    expect(readableTime('soon')).toBeNull();
    expect(timeElement('2026-11-28T14:05:00Z')).toBe('<time datetime=2026-11-28T14:05:00Z>2026-11-28 14:05 UTC</time>');
    expect(timeElement('<b>')).toBe('&lt;b&gt;');
  });
});
