import { createHash } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { hasPermission, STATUS_PAGE_SLUG, subscriptionRequestSchema, type SubscriptionRequest } from '@cbh/contracts';
import { Public, sendSmallPage, ZodPipe } from '../../platform';
import type { AppRequest } from '../../identity';
import { SUBSCRIBE_ANSWER, SubscriptionsService } from '../subscriptions.service';
import { PublicStatusService } from './public-status.service';
import { renderStateBadge, renderUptimeBadge } from './render-badge';
import { renderAtomFeed } from './render-feed';
import { renderStatusPage, type StatusPageInput } from './render-page';
import { StatusRenderings, type Rendering } from './status-renderings';

const slug = new ZodPipe(z.string().max(60).regex(STATUS_PAGE_SLUG, 'is not a status page'), 'slug');
const pageQuery = z.object({ history: z.coerce.number().int().min(1).max(10_000).default(1) });
const tokenBody = z.object({ code: z.string().max(200).optional(), 'List-Unsubscribe': z.string().max(40).optional() });
// `code`, not `token`: the hub refuses access tokens in URLs, and these links are no access token
const tokenQuery = z.object({ code: z.string().max(200).optional() });

/** Browsers and proxies keep an answer a few seconds, and a stale one while the hub cannot answer. */
const CACHE_CONTROL = 'public, max-age=3, stale-while-revalidate=10, stale-if-error=86400';
const styleHash = (html: string) => {
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
  return `'sha256-${createHash('sha256').update(style).digest('base64')}'`;
};
/** No script at all, the one inline style sheet by its hash, forms to this site only, never framed elsewhere. */
const pagePolicy = (html: string) =>
  `default-src 'none'; style-src ${styleHash(html)}; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

interface PageValue {
  html: string;
  /** what it was rendered from: the stale page is rendered from it when needed */
  input: StatusPageInput;
  /** the same page marked "showing the status as of …", served while the live status cannot be read */
  staleHtml?: string;
  /** its Content-Security-Policy (the style sheet's hash), computed once per rendering */
  policy: string;
  public: boolean;
  /** how many pages of resolved incidents there are */
  pages: number;
}

/**
 * The public side of status pages, answered without the SPA: the server-rendered page at /status/{slug} (working
 * with JavaScript off), its Atom feed, SVG badges, the JSON summary (CORS open), and the subscription forms. Every
 * rendering is cached per replica and served stale when the database is down (StatusRenderings). A private page
 * (public: false) is shown only to a signed-in account with dashboard_view, and never cached by others.
 */
@Controller()
@Public()
export class PublicStatusController {
  constructor(
    private readonly status: PublicStatusService,
    private readonly renderings: StatusRenderings,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  @Get('status/:slug')
  async page(
    @Req() req: AppRequest,
    @Res() reply: FastifyReply,
    @Param('slug', slug) pageSlug: string,
    @Query(new ZodPipe(pageQuery)) query: z.infer<typeof pageQuery>,
  ) {
    const first = await this.rendered(pageSlug, 1);
    if (!first) return notFound(reply);
    if (!mayRead(req, first.value.public)) return privatePage(reply, req);
    // only the history pages there are: the renderings one replica keeps stay as few as the pages it shows
    if (query.history > first.value.pages) return notFound(reply);
    const rendering = query.history === 1 ? first : await this.rendered(pageSlug, query.history);
    if (!rendering) return notFound(reply);
    const value = rendering.value;
    // the page as of its last rendering, said so, while the live status cannot be read (rendered when first needed)
    const html = rendering.stale
      ? (value.staleHtml ??= renderStatusPage({ ...value.input, stale: { since: value.input.summary.updatedAt }, subscribe: null }))
      : value.html;
    // the stale page has the same style sheet, so the same policy
    return sendRendering(req, reply, rendering, html, 'text/html; charset=utf-8', value.policy);
  }

  private rendered(pageSlug: string, history: number) {
    return this.renderings.get<PageValue>(`page:${pageSlug}:${history}`, async () => {
      const page = await this.status.pageBySlug(pageSlug);
      if (!page) return null;
      const [summary, pages] = [await this.status.summary(page), await this.status.history(page, history)];
      const basePath = `/status/${page.slug}`;
      const input = { summary, history: pages, basePath, subscribe: page.public ? { action: `${basePath}/subscribe` } : null };
      const html = renderStatusPage(input);
      return { value: { html, input, policy: pagePolicy(html), public: page.public, pages: pages.pages }, pageId: page.id, bytes: html };
    });
  }

  @Get('status/:slug/feed.atom')
  async feed(@Req() req: AppRequest, @Res() reply: FastifyReply, @Param('slug', slug) pageSlug: string) {
    const rendering = await this.renderings.get<{ xml: string; public: boolean }>(`feed:${pageSlug}`, async () => {
      const page = await this.status.pageBySlug(pageSlug);
      if (!page) return null;
      const summary = await this.status.summary(page);
      const xml = renderAtomFeed({
        summary,
        incidents: await this.status.feedIncidents(page),
        selfUrl: `${summary.page.url}/feed.atom`,
        pageUrl: summary.page.url,
      });
      return { value: { xml, public: page.public }, pageId: page.id, bytes: xml };
    });
    if (!rendering || !mayRead(req, rendering.value.public)) return notFound(reply);
    return sendRendering(req, reply, rendering, rendering.value.xml, 'application/atom+xml; charset=utf-8');
  }

  @Get('badge/:file')
  async pageBadge(@Req() req: AppRequest, @Res() reply: FastifyReply, @Param('file') file: string, @Query('metric') metric?: string) {
    return this.badge(req, reply, file.replace(/\.svg$/, ''), null, metric);
  }

  @Get('badge/:slug/:file')
  async componentBadge(
    @Req() req: AppRequest,
    @Res() reply: FastifyReply,
    @Param('slug') pageSlug: string,
    @Param('file') file: string,
    @Query('metric') metric?: string,
  ) {
    // the router decoded it already
    return this.badge(req, reply, pageSlug, file.replace(/\.svg$/, ''), metric);
  }

  @Post('status/:slug/subscribe')
  @HttpCode(200)
  async subscribeForm(@Req() req: AppRequest, @Res() reply: FastifyReply, @Param('slug', slug) pageSlug: string, @Body() body: unknown) {
    const parsed = subscriptionRequestSchema.safeParse({ email: (body as { email?: unknown } | null)?.email });
    const page = await this.status.pageBySlug(pageSlug);
    if (!page?.public) return notFound(reply);
    if (!parsed.success)
      return small(reply.status(422), 'Not an e-mail address', 'Go back and enter an e-mail address to subscribe.', `/status/${page.slug}`);
    await this.subscriptions.request(page, parsed.data, req.ip ?? 'unknown');
    // the same answer whoever the address belongs to; a page of its own, not a variant of the cached status page
    return small(reply.status(200), 'Check your inbox', SUBSCRIBE_ANSWER, `/status/${page.slug}`, undefined, `Back to ${page.title}`);
  }

  @Get('status/:slug/confirm')
  async confirmPage(
    @Res() reply: FastifyReply,
    @Param('slug', slug) pageSlug: string,
    @Query(new ZodPipe(tokenQuery)) query: z.infer<typeof tokenQuery>,
  ) {
    // a private page takes no subscribers, and tells nothing of itself here
    const page = await this.status.pageBySlug(pageSlug);
    if (!page?.public) return notFound(reply);
    return small(reply, `Subscribe to ${page.title}`, 'Confirm to get this page’s incidents and maintenance by e-mail.', null, {
      action: `/status/${page.slug}/confirm`,
      token: query.code ?? '',
      button: 'Confirm subscription',
    });
  }

  @Post('status/:slug/confirm')
  @HttpCode(200)
  async confirm(
    @Res() reply: FastifyReply,
    @Param('slug', slug) pageSlug: string,
    @Body(new ZodPipe(tokenBody)) body: z.infer<typeof tokenBody>,
  ) {
    const page = await this.status.pageBySlug(pageSlug);
    if (!page?.public) return notFound(reply);
    const done = await this.subscriptions.confirm(page, body.code ?? '');
    return done
      ? small(
          reply,
          'Subscription confirmed',
          `You will get ${page.title}’s incidents and maintenance by e-mail. Every mail has a link to stop them.`,
          `/status/${page.slug}`,
        )
      : small(
          reply.status(400),
          'This link does not work',
          'It expired or was altered: subscribe again from the status page.',
          `/status/${page.slug}`,
        );
  }

  @Get('status/:slug/unsubscribe')
  async unsubscribePage(
    @Res() reply: FastifyReply,
    @Param('slug', slug) pageSlug: string,
    @Query(new ZodPipe(tokenQuery)) query: z.infer<typeof tokenQuery>,
  ) {
    // works for a page made private since (a subscriber must always be able to leave), naming nothing of it
    const page = await this.status.pageBySlug(pageSlug);
    if (!page) return notFound(reply);
    return small(reply, 'Unsubscribe', 'Stop getting this status page’s incidents and maintenance by e-mail?', null, {
      action: `/status/${page.slug}/unsubscribe`,
      token: query.code ?? '',
      button: 'Unsubscribe',
    });
  }

  /** The form's button, and RFC 8058's one-click POST to the List-Unsubscribe address (the token in its query). */
  @Post('status/:slug/unsubscribe')
  @HttpCode(200)
  async unsubscribe(
    @Res() reply: FastifyReply,
    @Param('slug', slug) pageSlug: string,
    @Query(new ZodPipe(tokenQuery)) query: z.infer<typeof tokenQuery>,
    @Body(new ZodPipe(tokenBody)) body: z.infer<typeof tokenBody>,
  ) {
    const page = await this.status.pageBySlug(pageSlug);
    if (!page) return notFound(reply);
    const done = await this.subscriptions.unsubscribe(page, body.code ?? query.code ?? '');
    return done
      ? small(reply, 'You are unsubscribed', 'No more mail from this status page.', page.public ? `/status/${page.slug}` : '/')
      : small(reply.status(400), 'This link does not work', 'It was altered: use the link in the latest mail.', `/status/${page.slug}`);
  }

  private async badge(req: AppRequest, reply: FastifyReply, pageSlug: string, componentName: string | null, metric?: string) {
    if (!STATUS_PAGE_SLUG.test(pageSlug) || (metric !== undefined && metric !== 'uptime-30d')) return notFound(reply);
    const rendering = await this.status.rendered(pageSlug);
    if (!rendering || !rendering.value.public) return notFound(reply);
    const { summary } = rendering.value;
    const component = componentName === null ? null : summary.components.find((c) => c.name.toLowerCase() === componentName.toLowerCase());
    if (componentName !== null && !component) return notFound(reply);
    const label = component?.name ?? summary.page.title;
    const uptime = component ? component.uptime30d : averageUptime(summary.components.map((c) => c.uptime30d));
    const svg =
      metric === 'uptime-30d' ? renderUptimeBadge(`${label} 30d`, uptime) : renderStateBadge(label, component?.state ?? summary.state);
    return sendRendering(
      req,
      reply,
      { ...rendering, etag: `"${createHash('sha1').update(svg).digest('base64url')}"` },
      svg,
      'image/svg+xml; charset=utf-8',
      "default-src 'none'; style-src 'unsafe-inline'",
    );
  }
}

function averageUptime(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : Math.round((known.reduce((a, b) => a + b, 0) / known.length) * 10_000) / 10_000;
}

/** The machine-readable side under /api: the JSON summary (CORS open, cached as the page is) and subscribing by JSON. */
@Controller('public/status')
@Public()
export class PublicStatusApiController {
  constructor(
    private readonly status: PublicStatusService,
    private readonly subscriptions: SubscriptionsService,
  ) {}

  @Get(':slug')
  async summary(@Req() req: AppRequest, @Res() reply: FastifyReply, @Param('slug', slug) pageSlug: string) {
    const rendering = await this.status.rendered(pageSlug);
    reply.header('Access-Control-Allow-Origin', '*');
    if (!rendering || !rendering.value.public) return notFound(reply, true);
    return sendRendering(req, reply, rendering, rendering.value.json, 'application/json; charset=utf-8');
  }

  @Post(':slug/subscriptions')
  @HttpCode(202)
  async subscribe(
    @Req() req: AppRequest,
    @Param('slug', slug) pageSlug: string,
    @Body(new ZodPipe(subscriptionRequestSchema)) body: SubscriptionRequest,
  ) {
    const page = await this.status.pageBySlug(pageSlug);
    if (!page?.public) return { message: 'No such status page' };
    return { message: await this.subscriptions.request(page, body, req.ip ?? 'unknown') };
  }
}

function mayRead(req: AppRequest, isPublic: boolean) {
  return isPublic || hasPermission(req.user, 'dashboard_view');
}

function sendRendering(req: AppRequest, reply: FastifyReply, rendering: Rendering<unknown>, body: string, type: string, policy?: string) {
  const isPublic = (rendering.value as { public?: boolean }).public !== false;
  reply
    .header('Content-Type', type)
    .header('Cache-Control', isPublic ? CACHE_CONTROL : 'private, no-cache')
    .header('ETag', rendering.etag)
    .header('Last-Modified', new Date(rendering.at).toUTCString())
    .header('Vary', 'Cookie');
  if (policy) reply.header('Content-Security-Policy', policy);
  if (req.headers['if-none-match'] === rendering.etag) return reply.status(304).send();
  return reply.send(body);
}

function privatePage(reply: FastifyReply, req: AppRequest) {
  return req.user
    ? small(reply.status(403), 'This status page is private', 'It is shown to accounts with the dashboard_view permission only.', '/')
    : small(reply.status(401), 'This status page is private', 'Sign in to see it.', '/api/login', undefined, 'Sign in');
}

function notFound(reply: FastifyReply, json = false) {
  if (json) return reply.status(404).header('Content-Type', 'application/json').send({ statusCode: 404, message: 'No such status page' });
  return small(reply.status(404), 'No such status page', 'Check the address.', '/');
}

function small(
  reply: FastifyReply,
  title: string,
  text: string,
  back: string | null,
  form?: { action: string; token: string; button: string },
  backLabel = 'Back',
) {
  return sendSmallPage(reply, { title, text, form, back: back ? { href: back, label: backLabel } : undefined });
}
