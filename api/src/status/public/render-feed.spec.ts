import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { renderAtomFeed, type AtomFeedInput } from './render-feed';
import { incidentFixture, NOW, summaryFixture } from './status-page.test-kit';

const schema = { fileName: 'atom.rng', contents: readFileSync(path.join(__dirname, 'atom.rng'), 'utf8') };

/** Validates against RFC 4287's schema (Appendix B) as RELAX NG. */
async function validate(xml: string) {
  const result = await validateXML({ xml: { fileName: 'feed.xml', contents: xml }, schema, extension: 'relaxng' });
  return { valid: result.valid, errors: result.errors.map((error) => error.message) };
}

const input = (overrides: Partial<AtomFeedInput> = {}): AtomFeedInput => ({
  summary: summaryFixture({ components: 2 }),
  incidents: [incidentFixture(1), incidentFixture(2, { updates: 2, resolved: true }), incidentFixture(3, { updates: 0 })],
  selfUrl: 'https://status.example.com/status/payments/feed.atom',
  pageUrl: 'https://status.example.com/status/payments',
  ...overrides,
});

/** The text of each of the document's elements of a name (no namespace handling needed: the feed has one). */
const all = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}(?:\\s[^>]*)?>([^<]*)</${name}>`, 'g'))].map((match) => match[1]!);

describe('renderAtomFeed', () => {
  it('is valid Atom (RFC 4287) for incidents open and resolved, and maintenance', async () => {
    const xml = renderAtomFeed(input());
    expect(await validate(xml)).toEqual({ valid: true, errors: [] });
  });

  it('is valid Atom with no entry at all, and with hostile texts', async () => {
    const empty = input({ incidents: [], summary: { ...summaryFixture({ components: 0 }), maintenance: [] } });
    expect(await validate(renderAtomFeed(empty))).toEqual({ valid: true, errors: [] });

    const evil = '<script>alert(1)</script>]]>&amp;"\'\u0001\u0008\uFFFF\uD800';
    const summary = summaryFixture({ components: 1 });
    summary.page = { ...summary.page, title: evil, description: evil };
    summary.maintenance = [{ name: evil, startsAt: 'not a time', endsAt: evil, active: false, components: [evil] }];
    const incident = { ...incidentFixture(5), title: evil, createdAt: 'yesterday' };
    incident.updates[0]!.messageHtml = `<p>${evil}</p>`;
    const xml = renderAtomFeed(input({ summary, incidents: [incident], pageUrl: 'https://x.example/"<&>', selfUrl: evil }));
    expect(await validate(xml)).toEqual({ valid: true, errors: [] });
    expect(xml).not.toContain('<script');
  });

  it('names the feed: a stable id, title, subtitle, links self and alternate, an author, updated', () => {
    const xml = renderAtomFeed(input());
    expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"')).toBe(true);
    expect(all(xml, 'id')[0]).toBe('https://status.example.com/status/payments');
    expect(all(xml, 'title')[0]).toBe('Acme Payments status');
    expect(all(xml, 'subtitle')).toEqual(['The live status of the Acme payment platform.']);
    expect(xml).toContain('<link rel="self" type="application/atom+xml" href="https://status.example.com/status/payments/feed.atom"/>');
    expect(xml).toContain('<link rel="alternate" type="text/html" href="https://status.example.com/status/payments"/>');
    expect(xml).toContain('<author><name>Acme Payments</name><uri>https://status.example.com/status/payments</uri></author>');
  });

  it("dates the feed by its newest entry, not by a window announced for later; else by the summary's time", () => {
    const xml = renderAtomFeed(input());
    // incident 1's last update: NOW - 1 h + 4 × 10 min; the active window started at 13:00, the scheduled one is later
    expect(all(xml, 'updated')[0]).toBe('2026-11-28T13:45:09Z');
    const none = renderAtomFeed(input({ incidents: [], summary: { ...summaryFixture({ components: 0 }), maintenance: [] } }));
    expect(all(none, 'updated')).toEqual([NOW.replace('.000Z', 'Z')]);
  });

  it('has one entry per incident, with a stable id, its impact and status, times, link and timeline', () => {
    const xml = renderAtomFeed(input());
    const entries = xml.split('<entry>').slice(1);
    expect(entries).toHaveLength(5);
    const incident = entries.find((entry) => entry.includes('#incident-2</id>'))!;
    expect(all(incident, 'id')).toEqual(['https://status.example.com/status/payments#incident-2']);
    expect(all(incident, 'title')).toEqual(['[Critical impact] Card payments failing for some customers (2) — Resolved']);
    expect(all(incident, 'published')).toEqual(['2026-11-28T12:05:09Z']);
    expect(all(incident, 'updated')).toEqual(['2026-11-28T12:15:09Z']);
    expect(incident).toContain('<link rel="alternate" type="text/html" href="https://status.example.com/status/payments#incident-2"/>');
    const content = all(incident, 'content')[0]!;
    // the timeline, newest first, as escaped HTML; the messages as sanitised upstream
    expect(content).toMatch(/^&lt;p&gt;&lt;strong&gt;Critical impact&lt;\/strong&gt; · Resolved&lt;\/p&gt;/);
    expect(content.indexOf('Resolved&lt;/strong&gt; · 2026-11-28 12:15 UTC')).toBeLessThan(content.indexOf('Investigating&lt;/strong&gt;'));
    expect(content).toContain('&lt;a href=&quot;https://example.com/runbook&quot;');
    // an incident with no update yet is dated by its creation
    const bare = entries.find((entry) => entry.includes('#incident-3</id>'))!;
    expect(all(bare, 'updated')).toEqual(all(bare, 'published'));
  });

  it('has one entry per maintenance window', () => {
    const entries = renderAtomFeed(input())
      .split('<entry>')
      .slice(1)
      .filter((entry) => entry.includes('#maintenance-'));
    expect(entries.map((entry) => all(entry, 'title')[0])).toEqual([
      '[Maintenance] Database upgrade — in progress',
      '[Maintenance] Card network failover test — scheduled 2026-12-03 22:00 UTC',
    ]);
    expect(all(entries[0]!, 'id')).toEqual([
      'https://status.example.com/status/payments#maintenance-database-upgrade-2026-11-28T13:00:00Z',
    ]);
  });

  it('keeps the rules RELAX NG cannot say: an author on the feed, content on every entry', () => {
    const xml = renderAtomFeed(input());
    expect(xml).toMatch(/^[^]*?<author><name>[^<]+<\/name>/);
    const entries = xml.split('<entry>').slice(1);
    for (const entry of entries) expect(entry).toMatch(/<content type="html">[^<]+<\/content>/);
  });

  it('is deterministic', () => {
    expect(renderAtomFeed(input())).toBe(renderAtomFeed(input()));
  });

  describe('the validator bites', () => {
    const valid = renderAtomFeed(input());

    it.each([
      ['the feed id', (xml: string) => xml.replace(/<id>[^<]*<\/id>/, '')],
      ['the feed title', (xml: string) => xml.replace(/<title type="text">[^<]*<\/title>/, '')],
      ['the feed updated', (xml: string) => xml.replace(/<updated>[^<]*<\/updated>/, '')],
      ['an entry id', (xml: string) => xml.replace(/(<entry>)<id>[^<]*<\/id>/, '$1')],
      ['an entry updated', (xml: string) => xml.replace(/(<entry>.*?)<updated>[^<]*<\/updated>/, '$1')],
      ['a link href', (xml: string) => xml.replace(' href="https://status.example.com/status/payments"', '')],
    ])('a feed without %s is invalid', async (_name, cut) => {
      const broken = cut(valid);
      expect(broken).not.toBe(valid);
      expect((await validate(broken)).valid).toBe(false);
    });

    it('a bad date, an unknown Atom element or a wrong namespace is invalid', async () => {
      expect((await validate(valid.replace(/<updated>[^<]*</, '<updated>28 Nov 2026<'))).valid).toBe(false);
      expect((await validate(valid.replace('<generator>', '<colour>red</colour><generator>'))).valid).toBe(false);
      expect((await validate(valid.replace('http://www.w3.org/2005/Atom', 'http://example.com/not-atom'))).valid).toBe(false);
    });

    it('accepts what Atom allows: extension elements, xhtml text, no optional elements', async () => {
      const extended = valid.replace('<generator>', '<x:note xmlns:x="urn:example">hi</x:note><generator>');
      expect((await validate(extended)).valid).toBe(true);
      const xhtml = valid.replace(
        /<title type="text">([^<]*)<\/title>/,
        '<title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><b>$1</b></div></title>',
      );
      expect((await validate(xhtml)).valid).toBe(true);
      const minimal =
        '<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:x</id><title>t</title><updated>2026-01-01T00:00:00Z</updated></feed>';
      expect((await validate(minimal)).valid).toBe(true);
    });
  });
});
