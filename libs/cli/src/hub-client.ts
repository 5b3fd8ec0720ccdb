import type { ApiErrorBody } from '@cbh/contracts';
import { CliError, HubRefusal, HubUnreachable } from './cli-error';

/** Long enough for an import of a few thousand items, short enough that a CI job does not hang on a dead hub. */
const TIMEOUT_MS = 120_000;

/** The hub from CBH_URL, called with the access token in CBH_TOKEN; read when a command runs, so --help needs neither. */
export function hubFromEnv(env: NodeJS.ProcessEnv = process.env): HubClient {
  const url = env.CBH_URL?.trim();
  const token = env.CBH_TOKEN?.trim();
  if (!url) throw new CliError("CBH_URL is not set: set it to the hub's address, e.g. CBH_URL=https://hub.example.com");
  if (!token) throw new CliError("CBH_TOKEN is not set: create an access token on the hub's Account page and set CBH_TOKEN to it");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`CBH_URL is not a URL: "${url}" (expected e.g. https://hub.example.com)`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CliError(`CBH_URL must be an http:// or https:// address, not "${url}"`);
  }
  return new HubClient(`${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`, token);
}

interface Call {
  method?: string;
  body?: string;
  contentType?: string;
  accept?: string;
  /** How long to wait for the answer; a poll or a stop on the way out waits less than an import. */
  timeoutMs?: number;
}

export class HubClient {
  constructor(
    /** The hub's address without a trailing slash, as messages name it. */
    readonly url: string,
    private readonly token: string,
  ) {}

  /** The answer to a request under /api; anything but a 2xx is thrown as a CliError saying what to do about it. */
  async send(
    path: string,
    { method = 'GET', body, contentType, accept = 'application/json', timeoutMs = TIMEOUT_MS }: Call = {},
  ): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.url}${path}`, {
        method,
        body,
        // a redirect is reported, not followed: the token must not travel to an address nobody configured
        redirect: 'manual',
        headers: { authorization: `Bearer ${this.token}`, accept, ...(contentType ? { 'content-type': contentType } : {}) },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new HubUnreachable(`Cannot reach the hub at ${this.url} (CBH_URL): ${whyUnreachable(error, timeoutMs)}`);
    }
    if (response.ok) return response;
    throw await this.refusal(method, path, response);
  }

  async json<T>(path: string, call: Call = {}): Promise<T> {
    const response = await this.send(path, call);
    try {
      return (await response.json()) as T;
    } catch {
      throw new CliError(
        `${this.url} answered ${call.method ?? 'GET'} ${path} with something other than JSON: is CBH_URL the hub's address?`,
      );
    }
  }

  private async refusal(verb: string, path: string, response: Response): Promise<CliError> {
    const request = `${verb} ${path}`;
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      return new CliError(
        `${this.url} redirects ${request} to ${location ?? 'another address'}: set CBH_URL to the hub's own address${location ? ` (${new URL(location, this.url).origin}?)` : ''}`,
      );
    }
    const body = await response.text();
    let message: string | undefined;
    try {
      message = (JSON.parse(body) as Partial<ApiErrorBody>).message;
    } catch {
      // not the hub's error shape: said below
    }
    if (typeof message !== 'string') {
      return new CliError(
        `${this.url} answered ${request} with ${response.status} ${response.statusText}, not as the hub answers: is CBH_URL the hub's address?`,
      );
    }
    const status = response.status;
    const refused = (text: string) => new HubRefusal(text, status, message);
    // every route cbh calls exists on the hub: a 404 is another server, or the hub under another path
    if (status === 404) return refused(`${this.url} has no ${request} (404: ${message}): is CBH_URL the hub's address?`);
    if (status === 401) return refused(`The hub refused the token in CBH_TOKEN (401): ${message}`);
    if (status === 403) return refused(`Not allowed (403): ${message}; the token, or the account it belongs to, lacks it`);
    if (status === 413) return refused(`Too large for the hub (413): ${message}`);
    if (status === 429) return refused(`The hub asks to slow down (429): ${message}`);
    if (status >= 500) return refused(`The hub failed (${status}): ${message}. Try again; the hub's log says more`);
    return refused(`The hub refused ${request} (${status}): ${message}`);
  }
}

/** fetch's "fetch failed" in words: the system's reason for the failed connection. */
function whyUnreachable(error: unknown, timeoutMs: number): string {
  if (error instanceof DOMException && error.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } }).cause;
  const code = cause?.code ?? cause?.errors?.[0]?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused (is the hub running, and is the port right?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'no such host';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed before an answer came (http:// for an https:// hub, or the other way round?)';
    default:
      return cause?.message ?? (error instanceof Error ? error.message : String(error));
  }
}
