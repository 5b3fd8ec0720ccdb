import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/** Escapes a text for HTML. */
export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1d2939}button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:0;background:#175cd3;color:#fff;cursor:pointer}a{color:#175cd3}';

/** The style's hash, for the Content-Security-Policy of these pages (no other style, no script). */
export const SMALL_PAGE_STYLE = STYLE;

/**
 * A one-purpose page a link in a mail opens (a status page's confirm and unsubscribe, an alert group's acknowledge):
 * a heading, a sentence, and optionally a form whose button POSTs — a GET never changes anything, so a mail scanner
 * opening a link does not act on the reader's behalf.
 */
export function smallPage(input: {
  title: string;
  text: string;
  form?: { action: string; token: string; button: string };
  back?: { href: string; label: string };
}) {
  const form = input.form
    ? `<form method="post" action="${escapeHtml(input.form.action)}"><input type="hidden" name="code" value="${escapeHtml(input.form.token)}"><button type="submit">${escapeHtml(input.form.button)}</button></form>`
    : '';
  const back = input.back ? `<p><a href="${escapeHtml(input.back.href)}">${escapeHtml(input.back.label)}</a></p>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(input.title)}</title><style>${STYLE}</style></head><body><main><h1>${escapeHtml(input.title)}</h1><p>${escapeHtml(input.text)}</p>${form}${back}</main></body></html>`;
}

/** No script at all, the one style sheet by its hash, forms to this site only, never framed. */
export const SMALL_PAGE_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

/** Sends a small page, never cached (it may name what the link is for). */
export function sendSmallPage(
  reply: FastifyReply,
  page: { title: string; text: string; form?: { action: string; token: string; button: string }; back?: { href: string; label: string } },
) {
  return reply
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Content-Security-Policy', SMALL_PAGE_POLICY)
    .send(smallPage(page));
}
