import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type tls from 'node:tls';
import type { TargetPolicy } from '../../platform';
import type { DnsResolver } from './dns-resolver';
import { sharedSecureContext } from './secure-context';
import { connectedAddressBlocked, resolveTarget } from './target-address';

export interface HttpCheckResult {
  /** up: an answer with status 2xx or 3xx; down: 4xx/5xx, no connection, no answer in time or a refused address. */
  status: 'up' | 'down';
  /** Until the response's status line and headers arrived (or the attempt gave up). */
  responseTimeMs: number;
  statusCode?: number;
  reason?: string;
  /** Which request decided the result: HTTPS, or HTTP when the HTTPS port refused. */
  protocol?: 'https' | 'http';
  address?: string;
}

export interface HttpCheckSettings {
  resolver: DnsResolver;
  policy: TargetPolicy;
  /** DOMAIN_HTTPS_PORT. */
  httpsPort: number;
  /** DOMAIN_HTTP_PORT. */
  httpPort: number;
  /** The whole check's budget, shared by the HTTPS attempt and an HTTP fallback. */
  timeoutMs: number;
  path?: string;
}

type Attempt = { statusCode: number } | { error: NodeJS.ErrnoException; timedOut: boolean };

// The HTTPS port is closed or does not speak TLS: the site is served over plain HTTP, if at all.
const TLS_REFUSED = new Set(['ECONNREFUSED', 'EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG']);

function hostHeader(host: string, port: number, defaultPort: number): string {
  const name = net.isIPv6(host) ? `[${host}]` : host;
  return port === defaultPort ? name : `${name}:${port}`;
}

function attempt(
  protocol: 'https' | 'http',
  host: string,
  address: string,
  port: number,
  path: string,
  timeoutMs: number,
  policy: TargetPolicy,
): Promise<Attempt> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Attempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    // https hands its options to tls.connect, secureContext with them (its typings leave that one out)
    const options: https.RequestOptions & Pick<tls.ConnectionOptions, 'secureContext'> = {
      host: address,
      port,
      path,
      method: 'GET',
      // A fresh connection each time: a pooled one would hide connection failures and skew the timing.
      agent: false,
      headers: {
        host: hostHeader(host, port, protocol === 'https' ? 443 : 80),
        'user-agent': 'CircuitBreakerHub-DomainCheck/1',
        accept: '*/*',
      },
    };
    if (protocol === 'https') {
      options.servername = net.isIP(host) ? undefined : host;
      // Uptime asks whether the site answers; the certificate's health is the TLS check's finding.
      options.rejectUnauthorized = false;
      options.secureContext = sharedSecureContext();
    }
    const request = (protocol === 'https' ? https : http).request(options, (response) => {
      // The status line is the answer; the body is not needed, so the connection is closed rather than read.
      response.on('error', () => undefined);
      finish({ statusCode: response.statusCode ?? 0 });
    });
    const timer = setTimeout(() => {
      const error: NodeJS.ErrnoException = new Error(`no answer within ${timeoutMs} ms`);
      error.code = 'ETIMEDOUT';
      finish({ error, timedOut: true });
    }, timeoutMs);
    request.on('socket', (socket) => {
      socket.once('connect', () => {
        const blocked = connectedAddressBlocked(socket.remoteAddress, policy);
        if (blocked) {
          const error: NodeJS.ErrnoException = new Error(blocked);
          error.code = 'EBLOCKED';
          finish({ error, timedOut: false });
        }
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => finish({ error, timedOut: false }));
    request.end();
  });
}

/**
 * One uptime check: a GET over HTTPS on the HTTPS port, or over HTTP on the HTTP port when the HTTPS port refuses
 * the connection or does not speak TLS. The connection goes to the address resolved and judged here.
 */
export async function checkHttp(domain: string, settings: HttpCheckSettings): Promise<HttpCheckResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const host = domain
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const path = settings.path ?? '/';
  const target = await resolveTarget(host, settings.resolver, settings.policy);
  if (!target.ok) return { status: 'down', responseTimeMs: elapsed(), reason: target.reason };
  const { address } = target;

  const run = async (protocol: 'https' | 'http', port: number) => {
    const budget = Math.max(1, settings.timeoutMs - elapsed());
    const attemptStarted = performance.now();
    const outcome = await attempt(protocol, host, address, port, path, budget, settings.policy);
    return { outcome, protocol, timeMs: Math.round(performance.now() - attemptStarted) };
  };

  let result = await run('https', settings.httpsPort);
  if ('error' in result.outcome && TLS_REFUSED.has(result.outcome.error.code ?? '') && elapsed() < settings.timeoutMs) {
    result = await run('http', settings.httpPort);
  }
  const { outcome, protocol, timeMs } = result;
  if ('statusCode' in outcome) {
    const up = outcome.statusCode >= 200 && outcome.statusCode < 400;
    return {
      status: up ? 'up' : 'down',
      responseTimeMs: timeMs,
      statusCode: outcome.statusCode,
      reason: up ? undefined : `HTTP ${outcome.statusCode}`,
      protocol,
      address,
    };
  }
  return { status: 'down', responseTimeMs: timeMs, reason: outcome.error.message, protocol, address };
}
