import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver took, with what its checks found. */
export interface ReceivedWebhook {
  at: number;
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
  /** Whether X-CBH-Signature matched the HMAC of "<timestamp>.<body>" under the receiver's secret (null: no secret). */
  signatureValid: boolean | null;
  /** What the receiver answered (0: it held the request, or dropped the connection). */
  answered: number;
}

/** How the receiver answers: a status, or hold the request without answering until released or the client gives up. */
export type ReceiverMode = { status: number } | { hold: true };

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** Requests answered 2xx: what a receiver acknowledged. */
  acknowledged(): ReceivedWebhook[];
  setMode(mode: ReceiverMode): void;
  /** Answers every held request with the status. */
  release(status?: number): void;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, ms?: number): Promise<ReceivedWebhook[]>;
  /** Closes the port (connections refused), to listen again on the same port with `start`. */
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real webhook receiver on loopback, as a customer would write one: it verifies the signature over the raw body
 * with the shared secret, records every request with its headers, and answers as the test sets it (200 by default).
 */
export async function startWebhookReceiver({
  secret,
  port: wantedPort = 0,
}: { secret?: string; port?: number } = {}): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const held: { response: http.ServerResponse; record: ReceivedWebhook }[] = [];
  let mode: ReceiverMode = { status: 200 };
  let waiters: { count: number; resolve: () => void }[] = [];
  const notify = () => {
    waiters = waiters.filter((waiter) => (received.length >= waiter.count ? (waiter.resolve(), false) : true));
  };

  const handler: http.RequestListener = (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // recorded as received; the test reads `raw`
      }
      const record: ReceivedWebhook = {
        at: Date.now(),
        path: request.url ?? '/',
        headers: request.headers,
        raw,
        body,
        signatureValid: null,
        answered: 0,
      };
      if (secret) record.signatureValid = verify(secret, request.headers, raw);
      received.push(record);
      notify();
      if ('hold' in mode) {
        held.push({ response, record });
        response.on('close', () => undefined);
        return;
      }
      answer(response, record, mode.status);
    });
  };
  const answer = (response: http.ServerResponse, record: ReceivedWebhook, status: number) => {
    if (response.destroyed) return;
    record.answered = status;
    response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `refused with ${status}`);
  };

  let server = http.createServer(handler);
  const listen = (port: number) =>
    new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  const port = await listen(wantedPort);
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });

  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    acknowledged: () => received.filter((record) => record.answered >= 200 && record.answered < 300),
    setMode: (next) => (mode = next),
    release: (status = 200) => {
      for (const { response, record } of held.splice(0)) answer(response, record, status);
    },
    waitFor: (count, ms = 10_000) =>
      new Promise((resolve, reject) => {
        if (received.length >= count) return resolve(received);
        const timer = setTimeout(() => reject(new Error(`${received.length} of ${count} webhooks arrived within ${ms} ms`)), ms);
        waiters.push({ count, resolve: () => (clearTimeout(timer), resolve(received)) });
      }),
    down: close,
    up: async () => {
      server = http.createServer(handler);
      await listen(port);
    },
    stop: close,
  };
}

/** The check a receiver makes: the signature over "<timestamp>.<raw body>", compared in constant time. */
function verify(secret: string, headers: http.IncomingHttpHeaders, raw: string): boolean {
  const timestamp = headers['x-cbh-timestamp'];
  const signature = headers['x-cbh-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}`);
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
