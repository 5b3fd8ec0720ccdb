import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The claims the provider tells about an account; leave a claim out to have the provider not send it. */
export type AccountClaims = { email?: string; email_verified?: boolean; given_name?: string; family_name?: string };

export interface TestOidcProvider {
  issuer: string;
  /** OIDC_* for an API whose callback is the redirect URI the provider was started with. */
  env: { OIDC_ISSUER_URL: string; OIDC_CLIENT_ID: string; OIDC_CLIENT_SECRET: string };
  /** What the provider says about the account signing in as `sub` from now on. */
  setAccount(sub: string, claims: AccountClaims): Promise<void>;
  /**
   * Plays a person at the provider: opens the authorization URL, signs in as `sub` on the development login form,
   * consents, and returns where the provider sends the browser back (the API's callback with a code).
   */
  signIn(authorizationUrl: string, sub: string): Promise<URL>;
  stop(): Promise<void>;
}

const CLIENT = { clientId: 'circuit-breaker-hub', clientSecret: 'client-secret-of-the-test-provider' };

/** A real OpenID Connect provider (oidc-provider) on a free loopback port, in a child process. */
export async function startOidcProvider(redirectUri: string): Promise<TestOidcProvider> {
  const child = fork(path.join(__dirname, 'oidc-provider-process.mjs'), [JSON.stringify({ redirectUri, ...CLIENT })], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const errors: string[] = [];
  child.stderr!.on('data', (chunk) => errors.push(String(chunk)));
  const { issuer } = await nextMessage<{ issuer: string }>(child, errors);
  return {
    issuer,
    env: { OIDC_ISSUER_URL: issuer, OIDC_CLIENT_ID: CLIENT.clientId, OIDC_CLIENT_SECRET: CLIENT.clientSecret },
    setAccount: async (sub, claims) => {
      const set = nextMessage(child, errors);
      child.send({ sub, claims });
      await set;
    },
    signIn: (authorizationUrl, sub) => throughProvider(issuer, authorizationUrl, sub),
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await exited;
    },
  };
}

function nextMessage<T>(child: ChildProcess, errors: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`the test OpenID Connect provider exited (${code}): ${errors.join('')}`));
    child.once('exit', exited);
    child.once('message', (message) => {
      child.off('exit', exited);
      resolve(message as T);
    });
  });
}

/** Follows the provider's redirects with its cookies and submits its login and consent forms until it sends the browser away. */
async function throughProvider(issuer: string, authorizationUrl: string, sub: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = new URL(authorizationUrl);
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 12; step++) {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form?.toString(),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) cookies.delete(name!);
      else cookies.set(name!, value.join('='));
    }
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== issuer) return next;
      [url, form] = [next, undefined];
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`the provider answered ${response.status} without a form: ${html.slice(0, 500)}`);
    form = new URLSearchParams(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, name, value]) => [name!, value!]),
    );
    if (form.get('prompt') === 'login') {
      form.set('login', sub);
      form.set('password', 'any password');
    }
    url = new URL(action.replace(/&amp;/g, '&'), url);
  }
  throw new Error('the provider did not send the browser back');
}
