import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import { SMTPServer } from 'smtp-server';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../platform/config/config';
import { MailService } from '../../platform/mail/mail.service';
import { OutboxRepository } from '../../platform/mail/outbox.repository';
import { linkIn, startSmtpSink } from '../../../test/smtp-sink';
import { migratedTestDatabase } from '../../../test/test-database';
import { ChannelSender, EMAIL_NOT_CONFIGURED, signWebhook } from './channel-sender';
import type { ChannelTarget, OutgoingNotification } from './channel-sender.types';
import { describeNotification } from './messages';

const PAGE = 'http://hub.example/breakers/7';

const opened: OutgoingNotification = {
  deliveryId: randomUUID(),
  type: 'breaker.opened',
  occurredAt: '2025-03-04T05:06:07.000Z',
  data: { breaker: { id: 7, name: 'payments', type: 'simple' }, from: 'CLOSED', to: 'OPEN', reason: '5 failures in a row', url: PAGE },
};

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
}

/** A receiver on loopback that keeps every request and answers with what `answer` says for its path. */
async function startReceiver(answer: (request: Received, response: http.ServerResponse) => void) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { url: request.url!, headers: request.headers, raw: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      answer(entry, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stop = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { base, received, stop };
}

const SECRET = 'webhook-secret-for-tests';

/** What a receiver following the README does: recompute the signature from the raw body and compare in constant time. */
function signatureValid(headers: http.IncomingHttpHeaders, raw: string): boolean {
  const expected = `sha256=${createHmac('sha256', SECRET).update(`${headers['x-cbh-timestamp']}.${raw}`).digest('hex')}`;
  const given = String(headers['x-cbh-signature'] ?? '');
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

let dataSource: DataSource;
let dropDatabase: () => Promise<void>;
let outbox: OutboxRepository;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

function configWith(env: Record<string, string>) {
  return loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'cbh-sender-')), ...env });
}

/** A sender as Nest would build it, over the real mail service and its outbox table. */
function senderWith(env: Record<string, string>) {
  const config = configWith(env);
  return new ChannelSender(config, new MailService(config, outbox));
}

let sender: ChannelSender;

beforeAll(async () => {
  ({ dataSource, drop: dropDatabase } = await migratedTestDatabase());
  outbox = new OutboxRepository(dataSource);
  smtp = await startSmtpSink();
  receiver = await startReceiver(({ url, headers, raw }, response) => {
    if (url === '/signed') response.writeHead(signatureValid(headers, raw) ? 200 : 401).end();
    else if (url === '/never')
      return; // holds the request open; the sender's deadline ends it
    else if (url.startsWith('/status/')) response.writeHead(Number(url.slice(8))).end(url.endsWith('503') ? 'down for maintenance' : '');
    else if (url === '/long-error') response.writeHead(500).end('e'.repeat(5000));
    else response.writeHead(url === '/discord' ? 204 : 200).end('ok');
  });
  sender = senderWith({ ALLOW_PRIVATE_TARGETS: '127.0.0.1/32', SMTP_URL: smtp.url });
});
afterAll(async () => {
  await receiver?.stop();
  await smtp?.stop();
  await dropDatabase?.();
});

const webhook = (urlPath: string, secret: string | null = SECRET): ChannelTarget => ({
  type: 'webhook',
  name: 'Hook',
  url: `${receiver.base}${urlPath}`,
  secret,
  recipients: [],
});
const lastReceived = () => receiver.received.at(-1)!;

describe('webhook', () => {
  it('posts exactly { id, type, occurredAt, data } with the four headers and a signature the receiver verifies', async () => {
    const before = Math.floor(Date.now() / 1000);
    const outcome = await sender.send(webhook('/signed'), opened);
    expect(outcome).toEqual({ ok: true, statusCode: 200, error: null, retryable: false, durationMs: expect.any(Number) });

    const { headers, raw } = lastReceived();
    expect(Object.keys(JSON.parse(raw))).toEqual(['id', 'type', 'occurredAt', 'data']);
    expect(JSON.parse(raw)).toEqual({ id: opened.deliveryId, type: 'breaker.opened', occurredAt: opened.occurredAt, data: opened.data });
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-cbh-event']).toBe('breaker.opened');
    expect(headers['x-cbh-delivery']).toBe(opened.deliveryId);
    const timestamp = Number(headers['x-cbh-timestamp']);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    expect(headers['x-cbh-signature']).toBe(signWebhook(SECRET, timestamp, raw));

    // the same headers over a changed body: the receiver refuses it
    const tampered = raw.replace('payments', 'payment$');
    const replay = await fetch(`${receiver.base}/signed`, {
      method: 'POST',
      headers: { 'x-cbh-timestamp': String(timestamp), 'x-cbh-signature': String(headers['x-cbh-signature']) },
      body: tampered,
    });
    expect(replay.status).toBe(401);
  });

  it('sends the same delivery id on every try, and no signature without a secret', async () => {
    await sender.send(webhook('/plain', null), opened);
    await sender.send(webhook('/plain', null), opened);
    const [first, second] = receiver.received.slice(-2);
    expect([first!.headers['x-cbh-delivery'], second!.headers['x-cbh-delivery']]).toEqual([opened.deliveryId, opened.deliveryId]);
    expect(first!.headers).not.toHaveProperty('x-cbh-signature');
  });

  it('signs "<timestamp>.<body>" with HMAC-SHA256, in hex', () => {
    // an independent computation: echo -n '1700000000.{}' | openssl dgst -sha256 -hmac key
    expect(signWebhook('key', 1_700_000_000, '{}')).toBe(`sha256=${createHmac('sha256', 'key').update('1700000000.{}').digest('hex')}`);
  });
});

describe('what a receiver answers', () => {
  it.each([
    [503, true, 'HTTP 503: down for maintenance'],
    [429, true, 'HTTP 429'],
    [408, true, 'HTTP 408'],
    [400, false, 'HTTP 400'],
    [404, false, 'HTTP 404'],
  ])('HTTP %i → retryable %s', async (status, retryable, error) => {
    const outcome = await sender.send(webhook(`/status/${status}`), opened);
    expect(outcome).toEqual({ ok: false, statusCode: status, error, retryable, durationMs: expect.any(Number) });
  });

  it("keeps the first 200 characters of the receiver's answer in the error", async () => {
    const outcome = await sender.send(webhook('/long-error'), opened);
    expect(outcome.error).toBe(`HTTP 500: ${'e'.repeat(200)}`);
  });

  it('ends a receiver that never answers at the deadline, as a retryable timeout', async () => {
    const outcome = await sender.send(webhook('/never'), opened, { timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: 'No complete answer within 300 ms', retryable: true });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(290);
    expect(outcome.durationMs).toBeLessThan(2000);
  });

  it('retries a refused connection', async () => {
    const closed = await startReceiver(() => undefined);
    await closed.stop();
    const outcome = await sender.send({ ...webhook('/'), url: `${closed.base}/hook` }, opened);
    expect(outcome).toMatchObject({ ok: false, statusCode: null, retryable: true, error: expect.stringContaining('ECONNREFUSED') });
  });
});

describe('the outbound-address guard', () => {
  it('never calls a metadata address, even with private targets allowed', async () => {
    const outcome = await senderWith({ ALLOW_PRIVATE_TARGETS: 'true' }).send(
      { ...webhook('/'), url: 'http://169.254.169.254/latest/meta-data/' },
      opened,
    );
    expect(outcome).toMatchObject({
      ok: false,
      statusCode: null,
      error: 'Refused to call 169.254.169.254: a link-local or metadata address',
      retryable: false,
    });
  });

  it('refuses loopback, and plain http, when private targets are not allowed', async () => {
    const strict = senderWith({ ALLOW_PRIVATE_TARGETS: 'false' });
    const count = receiver.received.length;
    const port = new URL(receiver.base).port;
    const https = await strict.send({ ...webhook('/'), url: `https://127.0.0.1:${port}/hook` }, opened);
    expect(https).toMatchObject({ ok: false, error: 'Refused to call 127.0.0.1: a loopback or private address', retryable: false });
    const plain = await strict.send(webhook('/signed'), opened);
    expect(plain).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Refused to call 127\.0\.0\.1 over plain http/),
      retryable: false,
    });
    expect(receiver.received).toHaveLength(count);
  });

  it('refuses a URL that is missing or not http(s), without trying', async () => {
    expect(await sender.send({ ...webhook('/'), url: null }, opened)).toMatchObject({ error: 'The channel has no URL', retryable: false });
    expect(await sender.send({ ...webhook('/'), url: 'ftp://127.0.0.1/x' }, opened)).toMatchObject({ retryable: false });
    expect(await sender.send({ ...webhook('/'), url: 'not a url' }, opened)).toMatchObject({ retryable: false });
  });
});

describe('chat', () => {
  it('gives a Slack webhook text and a mrkdwn section with what happened, when and the link', async () => {
    const outcome = await sender.send(
      { type: 'slack', name: 'Slack', url: `${receiver.base}/slack`, secret: null, recipients: [] },
      opened,
    );
    expect(outcome).toMatchObject({ ok: true, statusCode: 200 });
    const body = JSON.parse(lastReceived().raw);
    expect(Object.keys(body)).toEqual(['text', 'blocks']);
    expect(body.text).toContain("Breaker 'payments' opened");
    expect(body.blocks).toEqual([{ type: 'section', text: { type: 'mrkdwn', text: expect.any(String) } }]);
    const section: string = body.blocks[0].text.text;
    expect(section).toContain("*Breaker 'payments' opened*");
    expect(section).toContain('Breaker opened (CLOSED → OPEN): 5 failures in a row');
    expect(section).toContain('2025-03-04T05:06:07.000Z (4 Mar 2025, 05:06:07 UTC)');
    expect(section).toContain(`<${PAGE}|Open in Circuit Breaker Hub>`);
  });

  it('shows markup in names as text on Slack', async () => {
    const data = { ...opened.data, breaker: { id: 1, name: '<!channel> & co', type: 'simple' } };
    await sender.send({ type: 'slack', name: 'Slack', url: `${receiver.base}/slack`, secret: null, recipients: [] }, {
      ...opened,
      data,
    } as OutgoingNotification);
    expect(JSON.parse(lastReceived().raw).text).toContain("Breaker '&lt;!channel&gt; &amp; co' opened");
  });

  it('gives a Discord webhook content and an embed with title, description, link, time and colour', async () => {
    const outcome = await sender.send(
      { type: 'discord', name: 'Discord', url: `${receiver.base}/discord`, secret: null, recipients: [] },
      opened,
    );
    expect(outcome).toMatchObject({ ok: true, statusCode: 204 });
    const body = JSON.parse(lastReceived().raw);
    expect(body.content).toBe("Breaker 'payments' opened");
    expect(body.embeds).toEqual([
      {
        title: "Breaker 'payments' opened",
        description: expect.stringContaining(`[Open in Circuit Breaker Hub](${PAGE})`),
        url: PAGE,
        timestamp: opened.occurredAt,
        color: expect.any(Number),
      },
    ]);
    expect(body.embeds[0].description).toContain('5 failures in a row');
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });
});

describe('e-mail', () => {
  const email = (recipients: string[]): ChannelTarget => ({ type: 'email', name: 'Ops', url: null, secret: null, recipients });

  it('sends one message to every recipient, with the title as subject and the link', async () => {
    const outcome = await sender.send(email(['ops@example.com', 'oncall@example.com']), opened);
    expect(outcome).toMatchObject({ ok: true, error: null, retryable: false });
    const mail = smtp.mails.at(-1)!;
    expect(smtp.mails).toHaveLength(1);
    expect(mail.to).toEqual(['ops@example.com', 'oncall@example.com']);
    expect(mail.raw).toContain("Subject: Breaker 'payments' opened");
    expect(linkIn(mail, /Open in Circuit Breaker Hub: \S+/)).toBe(`Open in Circuit Breaker Hub: ${PAGE}`);
  });

  it('fails for good without SMTP_URL, the message kept in the outbox', async () => {
    const name = `unsent-${randomUUID()}`;
    const data = { ...opened.data, breaker: { id: 2, name, type: 'simple' } };
    const outcome = await senderWith({}).send(email(['ops@example.com']), { ...opened, data } as OutgoingNotification);
    expect(outcome).toMatchObject({ ok: false, statusCode: null, error: EMAIL_NOT_CONFIGURED, retryable: false });
    const kept = await dataSource.query('SELECT to_address, sent_at FROM outbox_emails WHERE subject = $1', [`Breaker '${name}' opened`]);
    expect(kept).toEqual([{ to_address: 'ops@example.com', sent_at: null }]);
  });

  it.each([
    [550, false],
    [451, true],
  ])('an SMTP server refusing the recipients with %i → retryable %s', async (code, retryable) => {
    const refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onRcptTo: (_address, _session, callback) => callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: code })),
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const { port } = refusing.server.address() as AddressInfo;
    try {
      const outcome = await senderWith({ SMTP_URL: `smtp://127.0.0.1:${port}` }).send(email(['gone@example.com']), opened);
      expect(outcome).toMatchObject({ ok: false, retryable, error: expect.stringContaining(String(code)) });
    } finally {
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });

  it('retries when the SMTP server cannot be reached', async () => {
    const closed = await startSmtpSink();
    await closed.stop();
    const outcome = await senderWith({ SMTP_URL: closed.url }).send(email(['ops@example.com']), opened);
    expect(outcome).toMatchObject({ ok: false, retryable: true, error: expect.stringContaining('ECONNREFUSED') });
  });
});

describe('the words of each event', () => {
  const breaker = { id: 7, name: 'x', type: 'simple' as const };
  const alert = {
    id: 3,
    type: 'certificate_expiring' as const,
    severity: 'critical' as const,
    message: 'expires in 5 days',
    status: 'open' as const,
  };
  const at = '2025-03-04T05:20:07.000Z';
  const slo = { id: 4, name: 'Checkout', target: 99.9, window: '30d', kind: 'breaker-calls' };
  const title = (type: OutgoingNotification['type'], data: OutgoingNotification['data']) =>
    describeNotification({ deliveryId: 'd', type, occurredAt: at, data }).title;

  it.each([
    ['breaker.opened', "Breaker 'x' opened", { breaker, url: PAGE }],
    ['breaker.recovered', "Breaker 'x' recovered", { breaker, from: 'HALF_OPEN', to: 'CLOSED', url: PAGE }],
    ['breaker.stuck_open', "Breaker 'x' stuck open for 15 minutes", { breaker, openedAt: '2025-03-04T05:05:00.000Z', url: PAGE }],
    ['breaker.flapping', "Breaker 'x' flapping: 6 openings in 10 minutes", { breaker, openings: 6, minutes: 10, url: PAGE }],
    [
      'domain.alert.opened',
      'Domain alert on example.com: expires in 5 days (critical, Certificate expiring)',
      { domain: { id: 1, name: 'example.com' }, alert, url: PAGE },
    ],
    [
      'domain.alert.resolved',
      'Domain alert resolved on example.com: expires in 5 days (critical, Certificate expiring)',
      { domain: { id: 1, name: 'example.com' }, alert: { ...alert, status: 'resolved' }, url: PAGE },
    ],
    [
      'slo.burn_rate',
      'SLO Checkout burning its budget 15.2× over 1h (page)',
      { slo, severity: 'page', window: '1h', burnRate: 15.24, errorBudgetRemaining: 0.5, url: PAGE },
    ],
    ['slo.budget_exhausted', 'SLO Checkout: error budget exhausted', { slo, errorBudgetRemaining: -0.1, url: PAGE }],
    ['slo.recovered', 'SLO Checkout no longer burning', { slo, errorBudgetRemaining: 0.4, url: PAGE }],
    ['notification.test', 'Test notification from Circuit Breaker Hub', { message: 'It works', url: PAGE }],
  ] as const)('%s → %s', (type, expected, data) => {
    expect(title(type, data as OutgoingNotification['data'])).toBe(expected);
  });
});

describe('log', () => {
  it("writes each notification as one line of the API's log, in the words an e-mail carries, and calls nobody", async () => {
    const lines: string[] = [];
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation((message: unknown) => void lines.push(String(message)));
    const requests = receiver.received.length;
    const mails = smtp.mails.length;
    try {
      const outcome = await sender.send({ type: 'log', name: 'Log', url: null, secret: null, recipients: [] }, opened);
      expect(outcome).toMatchObject({ ok: true, statusCode: null, error: null, retryable: false });
    } finally {
      log.mockRestore();
    }
    const { title, happened } = describeNotification(opened);
    expect(lines).toEqual([expect.stringContaining(`breaker.opened ${opened.deliveryId}: ${title} — ${happened}`)]);
    expect(lines[0]).toContain(PAGE);
    expect(receiver.received).toHaveLength(requests);
    expect(smtp.mails).toHaveLength(mails);
  });
});
