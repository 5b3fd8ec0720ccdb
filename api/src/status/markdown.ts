import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

/*
 * An incident update's Markdown as safe HTML, for the public page, the feed and the mails. Two layers: markdown-it with
 * raw HTML off (any tag an author types is shown as text) and its own link check, then sanitize-html with a strict
 * allow-list, so that whatever the first lets through (a parser bug, a linkified oddity) still cannot run: no script,
 * no event handler, no style, links only to http(s) and mailto, each marked nofollow and opening nothing.
 */

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });
// an image would load a third party's address into the page: the text `![alt](url)` reads as a link instead
markdown.disable('image');

export const LINK_REL = 'nofollow noopener noreferrer';

/** Every heading becomes an h4, so that it nests under the page's h3 incident titles and the outline stays in order. */
const ABSOLUTE_LINK = /^(https?:\/\/|mailto:)/i;

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'em', 'del', 's', 'code', 'pre', 'ul', 'ol', 'li', 'a', 'blockquote', 'hr', 'h4'],
  allowedAttributes: { a: ['href', 'rel'], ol: ['start'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // the text of a script, a style, … goes with it (sanitize-html's default list, named so that it cannot shrink)
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'xmp', 'noembed', 'noframes', 'plaintext', 'title'],
  transformTags: {
    ...Object.fromEntries(HEADINGS.map((tag) => [tag, 'h4'])),
    // an absolute http(s) or mailto address only (no relative one); else the link's words stay, as text (a span is
    // not allowed, so it goes and leaves its text)
    a: (_tagName, attribs): sanitizeHtml.Tag =>
      attribs.href && ABSOLUTE_LINK.test(attribs.href)
        ? { tagName: 'a', attribs: { href: attribs.href, rel: LINK_REL } }
        : { tagName: 'span', attribs: {} as sanitizeHtml.Attributes },
  },
};

/** HTML through the allow-list alone: the second layer of renderMarkdown, exported for its spec (and any HTML). */
export function sanitizeMessageHtml(html: string): string {
  return sanitizeHtml(html, SANITIZE).trim();
}

/** Markdown to sanitised HTML (empty for empty text). */
export function renderMarkdown(source: string): string {
  if (!source) return '';
  return sanitizeMessageHtml(markdown.render(String(source)));
}
