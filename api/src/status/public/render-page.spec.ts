/** @jest-environment jsdom */
import { COMPONENT_STATE_LABELS, COMPONENT_STATES, type PublicStatusSummary } from '@cbh/contracts';
import { renderStatusPage, type StatusPageInput } from './render-page';
import { componentFixture, historyFixture, incidentFixture, NOW, summaryFixture } from './status-page.test-kit';

const render = (overrides: Partial<StatusPageInput> = {}, summary: PublicStatusSummary = summaryFixture()) =>
  renderStatusPage({
    summary,
    history: historyFixture(),
    basePath: '/status/payments',
    subscribe: { action: '/status/payments/subscribe' },
    ...overrides,
  });

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');
const texts = (document: Document, selector: string) => [...document.querySelectorAll(selector)].map((node) => node.textContent ?? '');

describe('renderStatusPage', () => {
  it('is a whole HTML document, in English, titled, with landmarks, one style sheet and no script', () => {
    const html = render();
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    const document = parse(html);
    expect(document.title).toBe('Acme Payments status');
    expect(document.querySelector('meta[name=viewport]')?.getAttribute('content')).toBe('width=device-width,initial-scale=1');
    expect(document.querySelector('meta[name=description]')?.getAttribute('content')).toBe('The live status of the Acme payment platform.');
    expect(document.querySelectorAll('header')).toHaveLength(1);
    expect(document.querySelectorAll('main')).toHaveLength(1);
    expect(document.querySelectorAll('footer')).toHaveLength(1);
    expect(document.querySelectorAll('style')).toHaveLength(1);
    expect(html).not.toMatch(/<script|\son[a-z]+=|javascript:/i);
    expect(document.querySelector('meta[http-equiv=Content-Security-Policy]')?.getAttribute('content')).toContain("default-src 'none'");
  });

  it('has one h1 and headings that never skip a level going down', () => {
    const summary = summaryFixture();
    summary.incidents[0]!.updates[0]!.messageHtml = '<h4>What we know</h4><p>More soon.</p>';
    const document = parse(render({}, summary));
    const levels = [...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map((heading) => Number(heading.tagName[1]));
    expect(levels[0]).toBe(1);
    expect(levels.filter((level) => level === 1)).toHaveLength(1);
    levels.forEach((level, at) => at > 0 && expect(level).toBeLessThanOrEqual(levels[at - 1]! + 1));
    expect(texts(document, 'h2')).toEqual(['Open incidents', 'Maintenance', 'Components', 'Incident history', 'Get updates by e-mail']);
  });

  it('says the overall state: all operational, else the worst state by its name', () => {
    const operational = { ...summaryFixture(), state: 'operational' as const };
    expect(texts(parse(render({}, operational)), '.ban')).toEqual(['All systems operational']);
    for (const state of COMPONENT_STATES.filter((value) => value !== 'operational')) {
      expect(texts(parse(render({}, { ...summaryFixture(), state })), '.ban')).toEqual([COMPONENT_STATE_LABELS[state]]);
    }
  });

  it('lists components in input order, grouped by their group where the group first appears', () => {
    const summary = summaryFixture({ components: 0 });
    summary.components = [
      { ...componentFixture(0), name: 'A', group: null },
      { ...componentFixture(1), name: 'B', group: 'Payments' },
      { ...componentFixture(2), name: 'C', group: null },
      { ...componentFixture(3), name: 'D', group: 'Payments' },
      { ...componentFixture(4), name: 'E', group: 'Edge' },
    ];
    const document = parse(render({}, summary));
    const section = document.querySelector('section[aria-labelledby=components]')!;
    const outline = [...section.querySelectorAll('h3,h4')].map((heading) => `${heading.tagName}:${heading.textContent}`);
    expect(outline).toEqual(['H3:A', 'H3:Payments', 'H4:B', 'H4:D', 'H3:C', 'H3:Edge', 'H4:E']);
  });

  it('gives each component its state as words (never colour alone) and its 30-day uptime', () => {
    const summary = summaryFixture({ components: 0 });
    summary.components = COMPONENT_STATES.map((state, index) => ({ ...componentFixture(index), state, group: null }));
    summary.components[0]!.uptime30d = 0.99951;
    summary.components[1]!.uptime30d = null;
    const document = parse(render({}, summary));
    const items = [...document.querySelectorAll('.c')];
    items.forEach((item, index) => expect(item.querySelector('.st')!.textContent).toBe(COMPONENT_STATE_LABELS[COMPONENT_STATES[index]!]));
    expect(items[0]!.querySelector('.ax')!.textContent).toBe('99.95 % uptime (30 days)');
    expect(items[1]!.textContent).toContain('No data (30 days)');
    for (const coloured of document.querySelectorAll('[class*=k]')) expect(coloured.textContent!.trim()).not.toBe('');
  });

  it('draws all 90 days of each component, each bar or run of alike days with its words', () => {
    const summary = summaryFixture({ components: 0 });
    const component = componentFixture(0);
    component.days[89] = {
      date: '2026-11-28',
      uptime: 0.99314,
      worst: 'partial_outage',
      incidents: [{ id: 9, title: 'Payments slow', impact: 'minor' }],
    };
    component.days[88] = { date: '2026-11-27', uptime: 1, worst: 'operational', incidents: [] };
    summary.components = [component];
    const document = parse(render({}, summary));
    const bars = [...document.querySelectorAll('.bars > li')];
    expect(document.querySelector('.bars')!.getAttribute('aria-label')).toBe('Last 90 days');
    const daysOf = (text: string) => {
      const [, from, to] = /^(\S+)(?: – (\S+))?:/.exec(text)!;
      return (Date.parse(to ?? from!) - Date.parse(from!)) / 86_400_000 + 1;
    };
    const covered = bars.reduce((sum, bar) => sum + daysOf(bar.textContent!), 0);
    expect(covered).toBe(90);
    expect(bars[0]!.textContent).toMatch(/^2026-08-31/);
    expect(bars[bars.length - 1]!.textContent).toBe('2026-11-28: 99.31 % up, Partial outage — Incident: Payments slow');
    for (const bar of bars) {
      expect(bar.getAttribute('tabindex')).toBe('0');
      expect(bar.textContent).toMatch(/^\d{4}-\d{2}-\d{2}( – \d{4}-\d{2}-\d{2})?: (no data|[\d.]+ % up)/);
    }
    // each day with an incident is its own bar
    const incidentDays = component.days.filter((day) => day.incidents.length > 0);
    for (const day of incidentDays) expect(bars.some((bar) => bar.textContent!.startsWith(`${day.date}: `))).toBe(true);
  });

  it('says when a young component has no data yet, and joins alike days into one run', () => {
    const summary = summaryFixture({ components: 0 });
    const component = componentFixture(0);
    component.days = component.days.map((day, index) => ({
      ...day,
      uptime: index < 30 ? null : 1,
      worst: 'operational',
      incidents: [],
    }));
    summary.components = [component];
    const document = parse(render({}, summary));
    expect(texts(document, '.bars > li')).toEqual(['2026-08-31 – 2026-09-29: no data', '2026-09-30 – 2026-11-28: 100 % up']);
    expect(document.querySelector('.bars > li')!.className).toBe('bn w30');
    expect(document.querySelector('style')!.textContent).toContain('.w30{flex:30;background-size:3.3333%}');
  });

  it('labels the ends of the bars from the style sheet for 90 days, in the markup for any other number', () => {
    const summary = summaryFixture({ components: 0 });
    summary.components = [componentFixture(0), { ...componentFixture(1), days: componentFixture(1).days.slice(60) }];
    const document = parse(render({}, summary));
    const [ninety, thirty] = [...document.querySelectorAll('.ax')];
    expect(ninety!.children).toHaveLength(1);
    expect(document.querySelector('style')!.textContent).toContain('.ax:has(>:only-child)::before{content:"90 days ago"');
    expect([...thirty!.children].map((child) => child.textContent)).toEqual(['30 days ago', expect.stringContaining('(30 days)'), 'Today']);
    expect(thirty!.querySelectorAll('[aria-hidden=true]')).toHaveLength(2);
    expect(document.querySelectorAll('.bars')[1]!.getAttribute('aria-label')).toBe('Last 30 days');
  });

  it('shows open incidents with impact, components and their updates newest first, messages as given', () => {
    const summary = summaryFixture({ openIncidents: 0 });
    const incident = incidentFixture(7, { updates: 3, impact: 'major' });
    incident.updates[2]!.messageHtml = '<p>Fixed the <em>pool</em>.</p>';
    summary.incidents = [incident];
    const html = render({}, summary);
    expect(html).toContain('<p>Fixed the <em>pool</em>.</p>');
    const article = parse(html).querySelector('section[aria-labelledby=open] article')!;
    expect(article.id).toBe('incident-7');
    expect(article.querySelector('h3')!.textContent).toBe(incident.title);
    expect(article.textContent).toContain('Major impact');
    expect(article.textContent).toContain('Affects: Card payments (Partial outage), Checkout API (Degraded performance)');
    const updates = [...article.querySelectorAll('.tl > li')];
    expect(updates.map((update) => update.querySelector('strong')!.textContent)).toEqual(['Monitoring', 'Identified', 'Investigating']);
    expect(updates[0]!.querySelector('time')!.getAttribute('datetime')).toBe(incident.updates[2]!.createdAt.replace('.000Z', 'Z'));
    expect(updates[0]!.querySelector('time')!.textContent).toBe('2026-11-28 07:25 UTC');
  });

  it('shows maintenance, active and upcoming', () => {
    const section = parse(render()).querySelector('section[aria-labelledby=maintenance]')!;
    expect(section.textContent).toContain('Database upgrade');
    expect(section.textContent).toContain('In progress');
    expect(section.textContent).toContain('Scheduled2026-12-03 22:00 UTC – 2026-12-04 01:00 UTC'.replace('Scheduled', 'Scheduled '));
    expect(section.textContent).toContain('Affects: Webhooks');
    const none = { ...summaryFixture(), maintenance: [] };
    expect(parse(render({}, none)).querySelector('section[aria-labelledby=maintenance]')).toBeNull();
  });

  it('pages the incident history with Newer and Older links', () => {
    const middle = parse(render({ history: historyFixture({ page: 2, pages: 4 }) }));
    const nav = middle.querySelector('nav.pg')!;
    expect(nav.textContent).toContain('Page 2 of 4');
    expect(nav.querySelector('a[rel=prev]')!.getAttribute('href')).toBe('/status/payments?history=1#history');
    expect(nav.querySelector('a[rel=prev]')!.textContent).toBe('← Newer');
    expect(nav.querySelector('a[rel=next]')!.getAttribute('href')).toBe('/status/payments?history=3#history');
    expect(nav.querySelector('a[rel=next]')!.textContent).toBe('Older →');
    expect(middle.querySelectorAll('section[aria-labelledby=history] article')).toHaveLength(3);

    const first = parse(render({ history: historyFixture({ page: 1, pages: 4 }) }));
    expect(first.querySelector('nav.pg a[rel=prev]')).toBeNull();
    const last = parse(render({ history: historyFixture({ page: 4, pages: 4 }) }));
    expect(last.querySelector('nav.pg a[rel=next]')).toBeNull();
    const empty = parse(render({ history: { incidents: [], page: 1, pages: 0 } }));
    expect(empty.querySelector('nav.pg')).toBeNull();
    expect(empty.querySelector('section[aria-labelledby=history]')!.textContent).toContain('No past incidents.');
  });

  it('says when it was last updated, and when the status shown is stale', () => {
    const fresh = parse(render());
    expect(fresh.querySelector('main time')!.getAttribute('datetime')).toBe('2026-11-28T14:05:09Z');
    expect(fresh.body.textContent).toContain('Last updated 2026-11-28 14:05 UTC');
    expect(fresh.body.textContent).not.toContain('live status is unavailable');
    const stale = parse(render({ stale: { since: '2026-11-28T13:00:00Z' } }));
    expect(stale.querySelector('.note')!.textContent).toBe(
      'Showing the status as of 2026-11-28 13:00 UTC: the live status is unavailable right now.',
    );
  });

  it('links the Atom feed (in the head and visibly) and the JSON, and offers the subscribe form', () => {
    const document = parse(render({ subscribe: { action: '/status/payments/subscribe', notice: 'Check your inbox to confirm.' } }));
    expect(document.querySelector('link[rel=alternate][type="application/atom+xml"]')!.getAttribute('href')).toBe(
      '/status/payments/feed.atom',
    );
    expect(document.querySelector('footer a[href="/status/payments/feed.atom"]')!.textContent).toBe('Atom feed');
    expect(document.querySelector('footer a[href="/api/public/status/payments"]')!.textContent).toBe('JSON');
    const form = document.querySelector('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('/status/payments/subscribe');
    const input = form.querySelector('input[type=email][name=email]')!;
    expect(document.querySelector(`label[for="${input.id}"]`)!.textContent).toBe('Your e-mail address');
    expect(document.querySelector('.note[role=status]')!.textContent).toBe('Check your inbox to confirm.');
    expect(parse(render({ subscribe: null })).querySelector('form')).toBeNull();
  });

  it('uses the accent for the header and links, and a default without one', () => {
    const css = (accent: string | null) =>
      parse(render({}, { ...summaryFixture(), page: { ...summaryFixture().page, accentColor: accent } })).querySelector('style')!
        .textContent!;
    expect(css('#7b1fa2')).toContain(':root{--a:#7b1fa2;--o:#ffffff;--l:#7b1fa2}');
    expect(css(null)).toContain(':root{--a:#0b6bcb;');
    // a light accent: dark text on it, and a darker link colour
    expect(css('#ffeb3b')).toMatch(/^:root\{--a:#ffeb3b;--o:#000000;--l:#(?!ffeb3b)/);
    expect(css('red;}body{display:none')).toContain(':root{--a:#0b6bcb;');
  });

  it('escapes every text it is given', () => {
    const evil = '<script>alert(1)</script>"\'&<img src=x onerror=alert(1)>';
    const summary = summaryFixture({ components: 0, openIncidents: 0 });
    summary.page = { ...summary.page, title: evil, description: evil, slug: evil };
    summary.components = [{ ...componentFixture(5), name: evil, description: evil, group: evil }];
    summary.components[0]!.days[89]!.incidents = [{ id: 1, title: evil, impact: 'major' }];
    const incident = incidentFixture(3);
    summary.incidents = [{ ...incident, title: evil, components: [{ id: 1, name: evil, state: 'degraded' }] }];
    summary.maintenance = [{ name: evil, startsAt: evil, endsAt: evil, active: false, components: [evil] }];
    const html = render({ basePath: '/s/"><script>', stale: { since: evil }, subscribe: { action: '"><script>', notice: evil } }, summary);
    expect(html).not.toMatch(/<script|<img/i);
    // text is escaped, so every `<` opens the page's own markup: no handler in any tag, once the (escaped) quoted
    // values, which may well say "onerror=", are set aside
    for (const tag of html.match(/<[^>]*>/g)!) expect(tag.replace(/"[^"]*"/g, '""')).not.toMatch(/\son[a-z]*\s*=/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;&lt;img src=x onerror=alert(1)&gt;');
    const document = parse(html);
    expect(document.querySelector('h1')!.textContent).toBe(evil);
    for (const element of document.querySelectorAll('*')) {
      for (const attribute of element.attributes) expect(attribute.name).not.toMatch(/^on/);
    }
    expect(document.querySelectorAll('script,img')).toHaveLength(0);
  });

  it('is deterministic: the clock does not change a byte', () => {
    const input = { summary: summaryFixture(), history: historyFixture(), basePath: '/status/payments' };
    jest.useFakeTimers().setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const first = renderStatusPage(input);
    jest.setSystemTime(new Date('2031-06-01T00:00:00Z'));
    const second = renderStatusPage(input);
    jest.useRealTimers();
    expect(second).toBe(first);
  });

  it('fits a phone: a viewport, no fixed width wider than a 320 px screen, long words wrap', () => {
    const css = parse(render()).querySelector('style')!.textContent!;
    for (const [, value, unit] of css.matchAll(/(?:^|[;{])(?:min-)?width:(\d+(?:\.\d+)?)(px|rem)/g)) {
      expect(Number(value) * (unit === 'rem' ? 16 : 1)).toBeLessThanOrEqual(320);
    }
    expect(css).toContain('overflow-wrap:anywhere');
    expect(css).toContain('.bars>*{flex:1 1 0;min-width:0');
    expect(css).toContain('pre{overflow-x:auto');
  });

  it('stays under 50 KB for 20 components × 90 days, 3 open incidents of 5 updates and a page of 10 past incidents', () => {
    const html = render({ history: historyFixture({ incidents: 10 }), stale: { since: NOW } });
    const bytes = Buffer.byteLength(html);
    expect(bytes).toBeLessThanOrEqual(50 * 1024);
    // the worst case, every day of every component different with an incident: still one page, just heavier
    const worst = Buffer.byteLength(render({ history: historyFixture({ incidents: 10 }) }, summaryFixture({ everyDayDifferent: true })));
    expect(worst).toBeLessThanOrEqual(250 * 1024);
    process.stdout.write(`status page: ${bytes} bytes (every day different: ${worst} bytes)\n`);
  });

  it('renders fast', () => {
    const input = { summary: summaryFixture(), history: historyFixture({ incidents: 10 }), basePath: '/status/payments' };
    const started = performance.now();
    for (let run = 0; run < 50; run += 1) renderStatusPage(input);
    expect((performance.now() - started) / 50).toBeLessThan(20);
  });
});
