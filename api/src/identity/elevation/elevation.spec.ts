import { generateSecret, verify } from 'otplib';
import { linkIn, startSmtpSink } from '../../../test/smtp-sink';
import { DEMO_PASSWORD, signIn, startTestApi, TEST_ADMIN, type TestApi } from '../../../test/test-api';

const MASTER_KEY = 'master-key-for-the-tests';
const ACCOUNT = 'elevate@example.com';
/** A second replica of the site shares the session secret, as it would behind one gateway. */
const SESSION_SECRET = 'a-session-secret-both-replicas-of-this-file-share';

let api: TestApi;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let admin: string;
let account: string;
let accountId: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  api = await startTestApi({ SMTP_URL: smtp.url, MASTER_KEY, SESSION_SECRET });
  admin = await signIn(api.baseUrl, TEST_ADMIN.email, TEST_ADMIN.password);
  account = await signIn(api.baseUrl, ACCOUNT, DEMO_PASSWORD);
  accountId = (await (await call('/api/auth/user', { cookie: account })).json()).id;
});
afterAll(async () => {
  await api.stop();
  await smtp.stop();
});
beforeEach(async () => {
  // Back to admin, attempts and links forgotten, so each test starts from an account that may elevate.
  await call(`/api/users/${accountId}`, { method: 'PATCH', cookie: admin, body: { role: 'admin' } });
  await sql('DELETE FROM elevation_attempts');
  await sql('DELETE FROM elevation_tokens');
});

const call = (path: string, options: { method?: string; body?: unknown; cookie?: string } = {}) => api.call(path, options);
const elevate = (body: unknown, cookie = account) => call('/api/auth/elevate-privileges', { method: 'POST', body, cookie });
const mailsTo = (to: string) => smtp.mails.filter((mail) => mail.to.includes(to));
const lastLink = () => new URL(linkIn(mailsTo(ACCOUNT).at(-1)!, /http:\/\/localhost:\d+\/api\/auth\/elevate\/verify\/[\w-]+/)).pathname;
const roleOf = async () => (await (await call('/api/auth/user', { cookie: account })).json()).role;
const sql = (query: string, params: unknown[] = []) => api.sql(query, params);

it('lets only the elevation account try, and shows it the current code', async () => {
  const viewer = await signIn(api.baseUrl, 'viewer@example.com', DEMO_PASSWORD);
  expect((await elevate({ method: 'master_key', masterKey: MASTER_KEY }, viewer)).status).toBe(403);
  expect((await call('/api/auth/get-otp', { cookie: viewer })).status).toBe(403);
  expect((await call('/api/auth/get-otp')).status).toBe(401);

  const otp = await (await call('/api/auth/get-otp', { cookie: account })).json();
  expect(otp.otp).toMatch(/^\d{6}$/);
  expect(otp.timeLeft).toBeGreaterThanOrEqual(1);
  expect(otp.timeLeft).toBeLessThanOrEqual(30);
});

it('keeps the TOTP secret sealed at rest, and seals one kept in clear before on its first use', async () => {
  await call('/api/auth/get-otp', { cookie: account });
  const [sealed] = await sql('SELECT totp_secret FROM users WHERE id = $1', [accountId]);
  expect(sealed.totp_secret).toMatch(/^v1:[\w-]+\.[\w-]+\.[\w-]+$/);
  // a secret from before sealing: the codes shown are its codes, and afterwards it is sealed too
  const legacy = generateSecret();
  await sql('UPDATE users SET totp_secret = $2 WHERE id = $1', [accountId, legacy]);
  const { otp } = await (await call('/api/auth/get-otp', { cookie: account })).json();
  // (a 30 s step may end between the two readings: one step either side is the same secret's code)
  const isCodeOf = async (code: string, secret: string) => (await verify({ secret, token: code, epochTolerance: 30 })).valid;
  expect(await isCodeOf(otp, legacy)).toBe(true);
  const [resealed] = await sql('SELECT totp_secret FROM users WHERE id = $1', [accountId]);
  expect(resealed.totp_secret).toMatch(/^v1:/);
  expect(resealed.totp_secret).not.toContain(legacy);
  expect(await isCodeOf((await (await call('/api/auth/get-otp', { cookie: account })).json()).otp, legacy)).toBe(true);
});

it('elevates with the master key, compared in constant time; a wrong key is refused with a message', async () => {
  const wrong = await elevate({ method: 'master_key', masterKey: 'not the key' });
  expect(wrong.status).toBe(403);
  expect((await wrong.json()).message).toBe('Invalid master key');
  expect(await roleOf()).toBe('admin');

  const right = await elevate({ method: 'master_key', masterKey: MASTER_KEY });
  expect(right.status).toBe(200);
  expect(await right.json()).toEqual({ success: true, message: 'You now have super admin access.' });
  const me = await (await call('/api/auth/user', { cookie: account })).json();
  expect(me).toMatchObject({ role: 'super_admin', canElevate: false });
  expect((await elevate({ method: 'master_key', masterKey: MASTER_KEY })).status).toBe(403);
});

it('elevates with a time-based code and never accepts the same code twice', async () => {
  const { otp } = await (await call('/api/auth/get-otp', { cookie: account })).json();
  expect((await elevate({ method: 'time_based_otp', code: otp })).status).toBe(200);
  expect(await roleOf()).toBe('super_admin');

  await call(`/api/users/${accountId}`, { method: 'PATCH', cookie: admin, body: { role: 'admin' } });
  const again = await elevate({ method: 'time_based_otp', code: otp });
  expect(again.status).toBe(403);
  expect((await again.json()).message).toBe('This code was already used; wait for the next one');
  const wrong = await elevate({ method: 'time_based_otp', code: otp === '000000' ? '111111' : '000000' });
  expect((await wrong.json()).message).toBe('Invalid or expired code');
});

it('elevates through a single-use e-mailed link', async () => {
  const requested = await elevate({ method: 'email_verification' });
  expect(await requested.json()).toEqual({ success: false, pending: true, message: `A verification link was sent to ${ACCOUNT}` });
  expect(await roleOf()).toBe('admin');
  const link = lastLink();
  const followed = await call(link, { cookie: account });
  expect(followed.status).toBe(303);
  expect(await roleOf()).toBe('super_admin');
  expect((await call(link, { cookie: account })).status).toBe(410);
});

it('stops after 5 failed attempts in 15 minutes, and names bad input', async () => {
  for (let attempt = 0; attempt < 5; attempt++) expect((await elevate({ method: 'master_key', masterKey: 'guess' })).status).toBe(403);
  const limited = await elevate({ method: 'master_key', masterKey: MASTER_KEY });
  expect(limited.status).toBe(429);
  expect((await limited.json()).message).toBe('Too many failed attempts. Try again within 15 minutes.');

  const bad = await elevate({ method: 'time_based_otp', code: '12ab' });
  expect(bad.status).toBe(400);
  expect((await bad.json()).message).toBe('code: must be the 6-digit code');
  expect((await (await elevate({ method: 'sorcery' })).json()).message).toMatch(
    /method: must be one of email_verification, master_key, time_based_otp/,
  );
});

it('audits each elevation with its method', async () => {
  const rows = await sql("SELECT after->>'method' AS method FROM audit_entries WHERE action = 'auth.elevate' ORDER BY id");
  expect(rows.map((r) => r.method)).toEqual(['master_key', 'time_based_otp', 'email_verification']);
});

it('judges at most five of 40 guesses sent at once to two replicas, and writes nothing for the refused ones', async () => {
  const second = await startTestApi({ DATABASE_URL: api.databaseUrl, SMTP_URL: smtp.url, MASTER_KEY, SESSION_SECRET });
  try {
    const guess = (replica: TestApi) =>
      replica.call('/api/auth/elevate-privileges', { method: 'POST', body: { method: 'master_key', masterKey: 'guess' }, cookie: account });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => guess(i % 2 ? api : second)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 403).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(35);
    expect(statuses.every((status) => status === 403 || status === 429)).toBe(true);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(15 * 60);

    // the limit reached, more guesses leave no trace
    const [before] = await sql('SELECT count(*)::int AS rows FROM elevation_attempts');
    for (let i = 0; i < 3; i++) expect((await guess(second)).status).toBe(429);
    expect(await sql('SELECT count(*)::int AS rows FROM elevation_attempts')).toEqual([before]);
  } finally {
    await second.stop();
  }
});

it('sends one link e-mail a minute: a second request within it is a 429 saying when to ask again', async () => {
  const sent = mailsTo(ACCOUNT).length;
  expect((await elevate({ method: 'email_verification' })).status).toBe(200);
  const again = await elevate({ method: 'email_verification' });
  expect(again.status).toBe(429);
  expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(Number(again.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  expect((await again.json()).message).toMatch(
    new RegExp(`^A verification link was sent to ${ACCOUNT} moments ago; ask for another in \\d+ s\\.$`),
  );
  expect(mailsTo(ACCOUNT).length).toBe(sent + 1);
});

it('lets only the newest link elevate: a new link ends the earlier ones', async () => {
  expect((await elevate({ method: 'email_verification' })).status).toBe(200);
  const first = lastLink();
  // the cooldown has passed (the link was sent a minute ago, as the database's clock counts)
  await sql("UPDATE elevation_tokens SET created_at = created_at - interval '61 seconds'");
  expect((await elevate({ method: 'email_verification' })).status).toBe(200);
  const second = lastLink();
  expect(second).not.toBe(first);

  expect((await call(first, { cookie: account })).status).toBe(410);
  expect(await roleOf()).toBe('admin');
  expect((await call(second, { cookie: account })).status).toBe(303);
  expect(await roleOf()).toBe('super_admin');
});
