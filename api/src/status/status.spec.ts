import type { BreakerConfigView, IncidentView, PublicStatusSummary, StatusPageView, SubscriberView } from '@cbh/contracts';
import { eventually, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../test/test-api';
import { linkIn, startSmtpSink } from '../../test/smtp-sink';
import { MaintenanceAnnouncer } from './maintenance-announcer.service';
import { simpleBreaker } from '../../test/breaker-bodies';

const ENV = { SESSION_SECRET: 'a-session-secret-the-two-replicas-of-this-file-share' };

let api: TestApi;
let second: TestApi;
let admin: string;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  smtp = await startSmtpSink();
  api = await startTestApi({ ...ENV, SMTP_URL: smtp.url });
  second = await startTestApi({ ...ENV, SMTP_URL: smtp.url, DATABASE_URL: api.databaseUrl });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
});
afterAll(async () => {
  await second?.stop();
  await api?.stop();
  await smtp?.stop();
});

const json = async <T>(response: Response | Promise<Response>): Promise<T> => (await (await response).json()) as T;
const post = (path: string, body: unknown, replica = api) => replica.call(path, { method: 'POST', body, cookie: admin });

async function breaker(name: string): Promise<BreakerConfigView> {
  const response = await post('/api/circuit-breakers', simpleBreaker(name));
  expect(response.status).toBe(201);
  return json(response);
}

async function page(body: Record<string, unknown>): Promise<StatusPageView> {
  const response = await post('/api/status-pages', body);
  expect(response.status).toBe(201);
  return json(response);
}

const publicSummary = (slug: string, replica = api) => json<PublicStatusSummary>(replica.call(`/api/public/status/${slug}`));

describe('status pages', () => {
  it('derives a component from its breakers live, stores each change once, and every replica shows the same', async () => {
    const [payments, ledger] = [await breaker('status-payments'), await breaker('status-ledger')];
    const created = await page({
      slug: 'payments',
      title: 'Payments',
      public: true,
      components: [{ name: 'Card payments', group: 'Checkout', breakers: [payments.id, ledger.id] }],
    });
    expect(created).toMatchObject({
      slug: 'payments',
      state: 'operational',
      components: [{ name: 'Card payments', state: 'operational' }],
    });
    const component = created.components[0]!;

    expect((await post(`/api/circuit-breakers/${payments.id}/force-open`, undefined)).status).toBe(200);
    expect(await eventually(async () => (await publicSummary('payments', second)).state === 'partial_outage', 8000)).toBe(true);
    expect((await json<StatusPageView>(api.call(`/api/status-pages/${created.id}`, { cookie: admin }))).components[0]!.state).toBe(
      'partial_outage',
    );

    expect((await post(`/api/circuit-breakers/${ledger.id}/force-open`, undefined, second)).status).toBe(200);
    expect(await eventually(async () => (await publicSummary('payments')).state === 'major_outage', 8000)).toBe(true);
    await post(`/api/circuit-breakers/${payments.id}/reset`, undefined);
    await post(`/api/circuit-breakers/${ledger.id}/reset`, undefined);
    expect(await eventually(async () => (await publicSummary('payments')).state === 'operational', 8000)).toBe(true);

    // one row per change, whichever replica judged: created, partial, major, operational — and partial again on the way
    // back when a round fell between the two resets (two requests), which is a change like any other
    const changes = await api.sql('SELECT state FROM status_component_changes WHERE component_id = $1 ORDER BY id', [component.id]);
    const states = changes.map((row: { state: string }) => row.state);
    expect(states).toEqual(
      states.length === 5
        ? ['operational', 'partial_outage', 'major_outage', 'partial_outage', 'operational']
        : ['operational', 'partial_outage', 'major_outage', 'operational'],
    );

    const summary = await publicSummary('payments');
    expect(summary.components[0]!.days).toHaveLength(90);
    expect(summary.components[0]!.days.at(-1)!.uptime).not.toBeNull();
    // what the operator did not publish stays private: breaker names, ids
    const published = JSON.stringify(summary) + (await (await api.call('/status/payments')).text());
    expect(published).not.toContain('status-payments');
    expect(published).not.toContain('status-ledger');
    expect(published).not.toContain('"breakers"');
  });

  it('refuses bodies out of bounds, unknown breakers, a taken slug, and domains without domain_management', async () => {
    expect((await post('/api/status-pages', { slug: 'Bad Slug', title: 'x', public: true })).status).toBe(400);
    expect(
      (await post('/api/status-pages', { slug: 'ghost', title: 'x', public: true, components: [{ name: 'a', breakers: [999999] }] }))
        .status,
    ).toBe(422);
    expect((await post('/api/status-pages', { slug: 'payments', title: 'again', public: true })).status).toBe(409);
    const viewer = await signIn(api.baseUrl, 'viewer@example.com', 'demo-password-for-tests').catch(() => null);
    if (viewer) expect((await api.call('/api/status-pages', { cookie: viewer })).status).toBe(403);
    expect((await api.call('/api/status-pages')).status).toBe(401);
  });

  it('opens an incident that sets a component by hand until resolved, raising incident events for rules', async () => {
    const [listed] = await json<StatusPageView[]>(api.call('/api/status-pages', { cookie: admin }));
    const component = listed!.components[0]!;
    const opened = await post(`/api/status-pages/${listed!.id}/incidents`, {
      title: 'Card payments slow',
      impact: 'major',
      components: [{ id: component.id, state: 'degraded' }],
      message: 'We are **looking** into it. <script>alert(1)</script>',
    });
    expect(opened.status).toBe(201);
    const incident = await json<IncidentView>(opened);
    expect(incident.updates[0]!.messageHtml).toContain('<strong>looking</strong>');
    expect(incident.updates[0]!.messageHtml).not.toContain('<script');
    expect(await eventually(async () => (await publicSummary('payments')).components[0]!.state === 'degraded', 8000)).toBe(true);
    expect((await publicSummary('payments')).incidents.map((open) => open.title)).toEqual(['Card payments slow']);

    const resolved = await post(`/api/status-pages/${listed!.id}/incidents/${incident.id}/updates`, {
      status: 'resolved',
      message: 'Fixed.',
    });
    expect(resolved.status).toBe(201);
    expect(await json<IncidentView>(resolved)).toMatchObject({
      status: 'resolved',
      updates: [{ status: 'investigating' }, { status: 'resolved' }],
    });
    expect(await eventually(async () => (await publicSummary('payments')).components[0]!.state === 'operational', 8000)).toBe(true);
    expect(
      (await post(`/api/status-pages/${listed!.id}/incidents/${incident.id}/updates`, { status: 'monitoring', message: 'late' })).status,
    ).toBe(409);

    const events = await api.sql(
      "SELECT type FROM notification_events WHERE subject_kind = 'status_page' AND subject_id = $1 ORDER BY id",
      [listed!.id],
    );
    expect(events.map((row: { type: string }) => row.type)).toEqual(['incident.created', 'incident.resolved']);
    const history = await json<IncidentView[]>(api.call(`/api/status-pages/${listed!.id}/incidents?state=resolved`, { cookie: admin }));
    expect(history.map((entry) => entry.id)).toEqual([incident.id]);
  });

  it('serves the public page without script, cached with an ETag, and the JSON with CORS open', async () => {
    const response = await api.call('/status/payments');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).not.toMatch(/<script/i);
    expect(response.headers.get('cache-control')).toMatch(/max-age=\d+.*stale-if-error/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const etag = response.headers.get('etag')!;
    const again = await fetch(`${api.baseUrl}/status/payments`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const summary = await api.call('/api/public/status/payments');
    expect(summary.headers.get('access-control-allow-origin')).toBe('*');
    expect((await api.call('/status/no-such-page')).status).toBe(404);
    const feed = await api.call('/status/payments/feed.atom');
    expect(feed.headers.get('content-type')).toContain('application/atom+xml');
    expect(await feed.text()).toContain('Card payments slow');
    const badge = await api.call('/badge/payments.svg');
    expect(badge.headers.get('content-type')).toContain('image/svg+xml');
    expect(await badge.text()).toContain('Operational');
    expect(await (await api.call('/badge/payments/Card%20payments.svg?metric=uptime-30d')).text()).toMatch(/\d+(\.\d+)?%/);
  });

  it('asks for sign-in on a private page and shows it to dashboard_view', async () => {
    await page({ slug: 'internal', title: 'Internal', public: false });
    expect((await api.call('/status/internal')).status).toBe(401);
    expect((await api.call('/api/public/status/internal')).status).toBe(404);
    expect((await api.call('/status/internal', { cookie: admin })).status).toBe(200);
  });

  it('subscribes with double opt-in, mails incidents with a one-click unsubscribe, and never tells who subscribed', async () => {
    const listed = (await json<StatusPageView[]>(api.call('/api/status-pages', { cookie: admin }))).find((one) => one.slug === 'payments');
    const ask = () => api.call('/api/public/status/payments/subscriptions', { method: 'POST', body: { email: 'Reader@Example.com' } });
    const first = await ask();
    expect(first.status).toBe(202);
    const firstAnswer = await json(first);
    expect(await eventually(async () => smtp.mails.some((mail) => mail.to.includes('reader@example.com')), 5000)).toBe(true);
    const confirmMail = smtp.mails.find((mail) => mail.to.includes('reader@example.com'))!;
    const confirmLink = linkIn(confirmMail, /http:\/\/[^\s]+\/status\/payments\/confirm\?code=[\w.-]+/);
    const token = new URL(confirmLink).searchParams.get('code')!;
    // opening the link changes nothing (a mail scanner may open it)
    const opened = await api.call(`/status/payments/confirm?code=${token}`);
    expect([opened.status, opened.status === 200 ? '' : await opened.text()]).toEqual([200, '']);
    expect((await json<SubscriberView[]>(api.call(`/api/status-pages/${listed!.id}/subscribers`, { cookie: admin })))[0]!.confirmed).toBe(
      false,
    );
    const confirmed = await fetch(`${api.baseUrl}/status/payments/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `code=${encodeURIComponent(token)}`,
    });
    expect(confirmed.status).toBe(200);
    expect((await json<SubscriberView[]>(api.call(`/api/status-pages/${listed!.id}/subscribers`, { cookie: admin })))[0]!.confirmed).toBe(
      true,
    );
    // the same answer for a known address
    expect(await json(ask())).toEqual(firstAnswer);

    const before = smtp.mails.length;
    await post(`/api/status-pages/${listed!.id}/incidents`, {
      title: 'Ledger delays',
      impact: 'minor',
      components: [],
      message: 'Looking.',
    });
    const arrived = await eventually(async () => smtp.mails.slice(before).some((mail) => mail.raw.includes('Ledger delays')), 8000);
    expect(arrived).toBe(true);
    const incidentMails = smtp.mails.slice(before).filter((mail) => mail.raw.includes('Ledger delays'));
    expect(incidentMails).toHaveLength(1);
    const raw = incidentMails[0]!.raw.replace(/=\r?\n/g, '').replace(/\r?\n[ \t]+/g, ' ');
    expect(raw).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/);
    const unsubscribe = /List-Unsubscribe: <([^>]+)>/.exec(raw)![1]!;
    const oneClick = await fetch(unsubscribe.replace(/^http:\/\/[^/]+/, api.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await json<SubscriberView[]>(api.call(`/api/status-pages/${listed!.id}/subscribers`, { cookie: admin }))).toEqual([]);
  });

  it('limits subscription requests per address', async () => {
    const ask = () => api.call('/api/public/status/payments/subscriptions', { method: 'POST', body: { email: 'flood@example.com' } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await ask()).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
  });
});

describe('components through a rename', () => {
  it('keeps a component sent with its id, its history and its incidents, when it is renamed', async () => {
    const created = await page({ slug: 'rename', title: 'Rename', public: true, components: [{ name: 'Old name' }] });
    const [component] = created.components;
    await post(`/api/status-pages/${created.id}/incidents`, {
      title: 'Ongoing',
      impact: 'minor',
      components: [{ id: component!.id, state: 'degraded' }],
      message: 'x',
    });
    const renamed = await api.call(`/api/status-pages/${created.id}`, {
      method: 'PATCH',
      cookie: admin,
      body: { components: [{ id: component!.id, name: 'New name' }] },
    });
    expect((await json<StatusPageView>(renamed)).components.map(({ id, name }) => ({ id, name }))).toEqual([
      { id: component!.id, name: 'New name' },
    ]);
    const [incident] = await json<IncidentView[]>(api.call(`/api/status-pages/${created.id}/incidents`, { cookie: admin }));
    expect(incident!.components).toEqual([{ id: component!.id, name: 'New name', state: 'degraded' }]);
  });
});

describe('maintenance', () => {
  it('shows a window covering a component on the page and as its state, and mails the subscribers once', async () => {
    const covered = await breaker('status-maintained');
    const created = await page({
      slug: 'maintained',
      title: 'Maintained',
      public: true,
      components: [{ name: 'Search', breakers: [covered.id] }],
    });
    // a confirmed subscriber, as the links would make one
    await api.sql("INSERT INTO status_subscriptions (page_id, email, confirmed_at) VALUES ($1, 'ops-reader@example.com', now())", [
      created.id,
    ]);
    const starts = new Date(Date.now() - 60_000).toISOString();
    const ends = new Date(Date.now() + 3_600_000).toISOString();
    const window = await post('/api/maintenance-windows', {
      name: 'Index rebuild',
      startsAt: starts,
      endsAt: ends,
      breakers: ['status-maintained'],
    });
    expect(window.status).toBe(201);
    expect(await eventually(async () => (await publicSummary('maintained')).components[0]!.state === 'maintenance', 8000)).toBe(true);
    expect((await publicSummary('maintained')).maintenance).toEqual([
      { name: 'Index rebuild', startsAt: starts, endsAt: ends, active: true, components: ['Search'] },
    ]);
    const announcer = api.app.get(MaintenanceAnnouncer);
    await announcer.announce();
    // another round, on another replica: raised once all the same
    await second.app.get(MaintenanceAnnouncer).announce();
    expect(await eventually(async () => smtp.mails.some((mail) => mail.to.includes('ops-reader@example.com')), 8000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const mails = smtp.mails.filter((mail) => mail.to.includes('ops-reader@example.com'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.raw).toContain('Maintenance under way: Index rebuild');
  });
});

describe('what the public side never does', () => {
  it('answers 404 past the last history page, and a badge name that does not decode, rather than building or failing', async () => {
    // one resolved incident: one page of history
    expect((await api.call('/status/payments?history=1')).status).toBe(200);
    expect((await api.call('/status/payments?history=2')).status).toBe(404);
    expect((await api.call('/status/payments?history=9999')).status).toBe(404);
    expect((await api.call('/badge/payments/%25.svg')).status).toBe(404);
  });

  it('mails no one outside once a page is private, forgets its renderings at once, and takes no confirmation for it', async () => {
    const created = await page({ slug: 'going-private', title: 'Going private', public: true });
    await api.sql("INSERT INTO status_subscriptions (page_id, email, confirmed_at) VALUES ($1, 'outsider@example.com', now())", [
      created.id,
    ]);
    expect((await api.call('/api/public/status/going-private')).status).toBe(200);
    expect((await second.call('/api/public/status/going-private')).status).toBe(200);
    await api.call(`/api/status-pages/${created.id}`, { method: 'PATCH', cookie: admin, body: { public: false } });
    // on every replica, with no stale copy left to serve
    expect(await eventually(async () => (await second.call('/api/public/status/going-private')).status === 404, 3000)).toBe(true);
    expect((await api.call('/status/going-private/confirm?code=1.1.x')).status).toBe(404);
    const before = smtp.mails.length;
    await post(`/api/status-pages/${created.id}/incidents`, {
      title: 'Secret trouble',
      impact: 'major',
      components: [],
      message: 'internal',
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.mails.slice(before).filter((mail) => mail.to.includes('outsider@example.com'))).toEqual([]);
  });
});
