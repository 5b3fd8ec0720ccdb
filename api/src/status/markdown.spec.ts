/** @jest-environment jsdom */
import { LINK_REL, renderMarkdown, sanitizeMessageHtml } from './markdown';

/** Every element and attribute of the output, parsed as a browser would. */
function parse(html: string) {
  const body = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html').body;
  return [...body.querySelectorAll('*')];
}

const ALLOWED_TAGS = new Set(['P', 'BR', 'STRONG', 'EM', 'DEL', 'S', 'CODE', 'PRE', 'UL', 'OL', 'LI', 'A', 'BLOCKQUOTE', 'HR', 'H4']);

/** Nothing in the output may run: only allowed tags, no handler or style, links to http(s) and mailto only. */
function expectInert(html: string) {
  expect(html).not.toMatch(/<script/i);
  // text is escaped (`&lt;`), so every `<` opens real markup: an author's words may say `onerror=` or `javascript:`
  // (shown as text), a tag never
  for (const tag of html.match(/<[^>]*>/g) ?? []) {
    expect(tag).toMatch(/^<\/?(p|br|strong|em|del|s|code|pre|ul|ol|li|a|blockquote|hr|h4)[\s/>]/);
    expect(tag).not.toMatch(/\son[a-z]*\s*=/i);
    expect(tag).not.toMatch(/\sstyle\s*=/i);
    expect(tag).not.toMatch(/(javascript|vbscript|data)\s*:/i);
  }
  for (const element of parse(html)) {
    expect(ALLOWED_TAGS).toContain(element.tagName);
    for (const attribute of [...element.attributes]) {
      expect(['href', 'rel', 'start']).toContain(attribute.name);
      if (attribute.name === 'href') expect(new URL(attribute.value).protocol).toMatch(/^(https?|mailto):$/);
    }
  }
}

describe('renderMarkdown', () => {
  it('renders ordinary Markdown: paragraphs, emphasis, lists, code, links, quotes', () => {
    const html = renderMarkdown(
      [
        'We are **investigating** slow _payments_.',
        '',
        '- first',
        '- second',
        '',
        '1. one',
        '2. two',
        '',
        'Run `retry --all` or:',
        '',
        '```',
        'curl https://status.example.com',
        '```',
        '',
        '> quoted',
        '',
        'See [the runbook](https://example.com/runbook?a=1&b=2) or mail <ops@example.com>, also https://example.org/x.',
      ].join('\n'),
    );
    expect(html).toContain('<strong>investigating</strong>');
    expect(html).toContain('<em>payments</em>');
    expect(html).toMatch(/<ul>\s*<li>first<\/li>\s*<li>second<\/li>\s*<\/ul>/);
    expect(html).toMatch(/<ol>\s*<li>one<\/li>/);
    expect(html).toContain('<code>retry --all</code>');
    expect(html).toMatch(/<pre><code>curl https:\/\/status\.example\.com\n<\/code><\/pre>/);
    expect(html).toMatch(/<blockquote>\s*<p>quoted<\/p>\s*<\/blockquote>/);
    expect(html).toContain(`<a href="https://example.com/runbook?a=1&amp;b=2" rel="${LINK_REL}">the runbook</a>`);
    expect(html).toContain(`<a href="mailto:ops@example.com" rel="${LINK_REL}">ops@example.com</a>`);
    expect(html).toContain(`<a href="https://example.org/x" rel="${LINK_REL}">https://example.org/x</a>`);
    expectInert(html);
  });

  it('turns every heading into an h4, line breaks and rules stay', () => {
    const html = renderMarkdown('# Big\n\n### Small\n\nline one  \nline two\n\n---');
    expect(html).toContain('<h4>Big</h4>');
    expect(html).toContain('<h4>Small</h4>');
    expect(html).toContain('line one<br />');
    expect(html).toContain('<hr />');
  });

  it('is empty for empty text', () => {
    expect(renderMarkdown('')).toBe('');
  });

  const HOSTILE: [string, string][] = [
    ['a script tag', '<script>alert(1)</script>'],
    ['an image with a handler', '<img src=x onerror=alert(1)>'],
    ['a javascript: link', '[x](javascript:alert(1))'],
    ['an upper-case JAVASCRIPT: link', '[x](JAVASCRIPT:alert(1))'],
    ['a javascript: link with an entity', '[x](java&#x09;script:alert(1))'],
    ['a javascript: link with spaces and case', '[x]( JaVaScRiPt:alert(1) )'],
    ['a percent-encoded javascript: link', '[x](javascript%3Aalert(1))'],
    ['a vbscript: link', '[x](vbscript:msgbox(1))'],
    ['a data: link', '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)'],
    ['a data: image', '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)'],
    ['an image', '![tracker](https://evil.example/pixel.gif)'],
    ['an autolink to javascript:', '<javascript:alert(1)>'],
    ['an svg with onload', '<svg onload=alert(1)><circle r=1 /></svg>'],
    ['an anchor with a tab inside javascript:', '<a href="java&#x09;script:alert(1)">x</a>'],
    ['an HTML comment', 'before <!-- <script>alert(1)</script> --> after'],
    ['an iframe', '<iframe src="https://evil.example"></iframe>'],
    ['a style attribute', '<p style="background:url(javascript:alert(1))">x</p>'],
    ['a style element', '<style>body{display:none}</style>'],
    ['nested script tags', '<scr<script>ipt>alert(1)</scr</script>ipt>'],
    ['a reference-style javascript: link', '[x][evil]\n\n[evil]: javascript:alert(1)'],
    ['a link title with a quote', '[x](https://example.com "a\\" onmouseover=\\"alert(1)")'],
    ['a link with a handler in its address', '[x](https://example.com/"onmouseover="alert(1))'],
    ['markdown around raw html', '**<img src=x onerror=alert(1)>** _<a href="javascript:alert(1)">y</a>_'],
    ['a form', '<form action="https://evil.example"><input name=x></form>'],
    ['a meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
    ['a math element', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
    ['a linkified javascript: text', 'javascript:alert(1) and www.example.com'],
    ['a backtick in code', '`<script>alert(1)</script>`'],
    ['html entities', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['a mailto with a handler', '[m](mailto:a@example.com"onclick="alert(1))'],
    ['control characters', 'a\u0000b[x](java\u0000script:alert(1))'],
  ];

  it.each(HOSTILE)('leaves nothing executable of %s', (_name, source) => {
    expectInert(renderMarkdown(source));
  });

  // the second layer alone, on raw HTML (markdown-it never lets it through): it must bite by itself
  it.each(HOSTILE)('sanitizes the raw HTML of %s by itself', (_name, source) => {
    expectInert(sanitizeMessageHtml(source));
  });

  it('keeps allowed markup and links when sanitizing raw HTML, dropping the rest', () => {
    expect(
      sanitizeMessageHtml('<p onclick="x()" style="color:red">Hi <b>there</b> <a href="https://example.com" target="_blank">x</a></p>'),
    ).toBe(`<p>Hi there <a href="https://example.com" rel="${LINK_REL}">x</a></p>`);
    expect(sanitizeMessageHtml('<a href="/relative">r</a><a href="//evil.example">p</a><a href="java&#x09;script:alert(1)">j</a>')).toBe(
      'rpj',
    );
    expect(sanitizeMessageHtml('<script>alert(1)</script><iframe src="https://x"></iframe>ok')).toBe('ok');
  });

  it('shows raw HTML as text rather than dropping the words', () => {
    expect(renderMarkdown('use <b>bold</b>')).toBe('<p>use &lt;b&gt;bold&lt;/b&gt;</p>');
  });

  it('keeps a link whose address is refused as plain text, never as an anchor', () => {
    const html = renderMarkdown('[x](javascript:alert(1))');
    expect(parse(html).filter((element) => element.tagName === 'A')).toHaveLength(0);
  });
});
